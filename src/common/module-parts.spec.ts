import { Module } from '@nestjs/common';
import { gatherParts, ModuleParts } from './module-parts.js';

class First1700000000000 {
  up = () => Promise.resolve();
  down = () => Promise.resolve();
}

@ModuleParts({ auditActions: ['thing.shared'], migrations: [First1700000000000] })
@Module({})
class SharedModule {}

@ModuleParts({ scopes: [{ name: 'things:read', description: 'Read things', byDefault: true }], auditActions: ['thing.made'] })
@Module({ imports: [SharedModule] })
class ThingsModule {
  static register() {
    return { module: ThingsModule, imports: [OtherModule] };
  }
}

class OtherAdminController {}
const OTHER_COMMANDS = { name: 'other', title: 'Other', help: 'other do', commands: {} };

@ModuleParts({ auditActions: ['other.done'], adminControllers: [OtherAdminController], cliCommands: [OTHER_COMMANDS] })
@Module({})
class OtherModule {}

@Module({})
class PlainModule {}

describe('gatherParts', () => {
  it("gathers the parts of the listed modules and of those they import, each once, imports first, the caller's own before all", () => {
    const parts = gatherParts([ThingsModule.register(), SharedModule, PlainModule], { auditActions: ['app.started'] });
    expect(parts.auditActions).toEqual(['app.started', 'thing.shared', 'other.done', 'thing.made']);
    expect(parts.migrations).toEqual([First1700000000000]);
    expect(parts.scopes).toEqual([{ name: 'things:read', description: 'Read things', byDefault: true }]);
    expect(parts.config).toEqual([]);
  });

  it('gives the same parts whatever order a module is reached in', () => {
    expect(gatherParts([SharedModule, ThingsModule]).auditActions).toEqual(['thing.shared', 'thing.made']);
  });

  it('gathers admin controllers and commands, and the modules that declare commands: what the tool opens', () => {
    const parts = gatherParts([ThingsModule.register(), PlainModule]);
    expect(parts.adminControllers).toEqual([OtherAdminController]);
    expect(parts.cliCommands).toEqual([OTHER_COMMANDS]);
    expect(parts.cliModules).toEqual([OtherModule]);
  });
});
