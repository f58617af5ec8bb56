import { Controller, Get, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { AppParts, gatherParts, ModuleParts, ValidationFailedException } from '../../common/index.js';
import { RequiredScope, ScopeCatalogue, scopeString } from './scopes.js';

@ModuleParts({
  scopes: [
    { name: 'pets:read', description: 'Read', byDefault: true },
    { name: 'pets:write', description: 'Write', byDefault: true },
  ],
})
@Module({})
class PetsPart {}

@ModuleParts({ scopes: [{ name: 'keys:manage', description: 'Manage keys' }] })
@Module({})
class KeysPart {}

@Controller('things')
class ThingsController {
  @Get()
  @RequiredScope('things:read')
  list() {}
}

/** A catalogue of the scopes these modules declare, booted as an application would boot it. */
async function catalogueOf(...modules: Array<new () => object>): Promise<{ catalogue: ScopeCatalogue; boot: () => Promise<unknown> }> {
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule, ...modules],
    providers: [ScopeCatalogue, { provide: AppParts, useValue: gatherParts(modules) }],
  }).compile();
  return { catalogue: moduleRef.get(ScopeCatalogue), boot: () => moduleRef.createNestApplication().init() };
}

describe('ScopeCatalogue', () => {
  it('holds the scopes the modules declare, in module-list order, and which are the defaults', async () => {
    const { catalogue } = await catalogueOf(PetsPart, KeysPart);
    expect(catalogue.names).toEqual(['pets:read', 'pets:write', 'keys:manage']);
    expect(catalogue.defaults).toEqual(['pets:read', 'pets:write']);
  });

  it('gives a new key the defaults, or each named scope once in catalogue order, and refuses an undeclared one', async () => {
    const { catalogue } = await catalogueOf(PetsPart, KeysPart);
    expect(catalogue.resolve(undefined)).toEqual(['pets:read', 'pets:write']);
    expect(catalogue.resolve(['keys:manage', 'pets:read', 'keys:manage'])).toEqual(['pets:read', 'keys:manage']);
    expect(() => catalogue.resolve(['pets:read', 'PETS:WRITE'])).toThrow(ValidationFailedException);
    expect(() => catalogue.resolve(['pets:*'])).toThrow(
      expect.objectContaining({
        details: [{ field: 'scopes', message: 'each of scopes must be one of pets:read, pets:write, keys:manage' }],
      }),
    );
  });

  it('shows a stored list without the names it does not declare (a newer release wrote them)', async () => {
    const { catalogue } = await catalogueOf(PetsPart, KeysPart);
    expect(catalogue.known(['pets:read', 'pets:delete', 'keys:manage'])).toEqual(['pets:read', 'keys:manage']);
  });

  it('stops the boot when a route requires a scope no module declares', async () => {
    @Module({ controllers: [ThingsController] })
    class ThingsModule {}
    const { boot } = await catalogueOf(PetsPart, ThingsModule);
    await expect(boot()).rejects.toThrow('ThingsController.list requires the scope "things:read", which no module declares');
  });
});

describe('scopeString', () => {
  it('stores space-separated, as an OAuth scope string', () => {
    expect(scopeString.to(['pets:read', 'keys:manage'])).toBe('pets:read keys:manage');
    expect(scopeString.from('pets:read pets:write')).toEqual(['pets:read', 'pets:write']);
    expect(scopeString.from('')).toEqual([]);
  });
});
