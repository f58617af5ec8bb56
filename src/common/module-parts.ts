import { Module, type DynamicModule, type ModuleMetadata, type Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import type { MigrationInterface } from 'typeorm';
import type { ConfigNamespace } from '../platform/config/index.js';
import type { CliCommandGroup } from './command-line/command.js';
import type { ErrorClass } from './errors/api-error.decorator.js';

/** A permission a key may hold, which routes require with `@RequiredScope(name)`. */
export interface ScopeDefinition {
  /** `area:verb`, such as `pets:read`; never renamed once published. */
  name: string;
  description: string;
  /** Held by a key made without a list of scopes. */
  byDefault?: boolean;
}

/** Every module's parts, gathered from a module list (`gatherParts`): what the application is made of. Injectable. */
export class AppParts {
  /** The configuration namespaces a module reads (`defineConfig`): loaded and validated with every other module's. */
  readonly config: ConfigNamespace[] = [];
  /** The migrations of its tables; TypeORM runs them all in timestamp order. */
  readonly migrations: Array<Type<MigrationInterface>> = [];
  readonly scopes: ScopeDefinition[] = [];
  /** What its audit events say happened (`client.created`); never renamed once written. */
  readonly auditActions: string[] = [];
  /** Its exceptions (`@ApiError`): their codes join the catalogue of the document that serves the module. */
  readonly errors: ErrorClass[] = [];
  /** Its routes of the admin API (`/admin/v1/…`), never of the public one: the admin application serves them on the server's services. */
  readonly adminControllers: Type[] = [];
  /** Its commands of the command-line tool: the tool opens this module (with what it imports, its listeners included) to run them. */
  readonly cliCommands: CliCommandGroup[] = [];
  /** The modules that declare commands: what the command-line tool opens. */
  readonly cliModules: AppModuleImport[] = [];
}

/** What a module brings besides its providers and controllers, declared in its own folder: its share of the parts. */
export type ModulePartsDefinition = Partial<Omit<AppParts, 'cliModules'>>;

@Module({})
export class AppPartsModule {
  static forRoot(parts: AppParts): DynamicModule {
    return { module: AppPartsModule, global: true, providers: [{ provide: AppParts, useValue: parts }], exports: [AppParts] };
  }
}

/** Declares a module's parts on its class, beside `@Module()`: the application gathers them from its module list. */
export const ModuleParts = Reflector.createDecorator<ModulePartsDefinition>();

export type AppModuleImport = NonNullable<ModuleMetadata['imports']>[number];

/** The parts of `modules` and every module they import, each once, in list order: one list, the same parts for every entry point. */
export function gatherParts(modules: readonly AppModuleImport[], own: ModulePartsDefinition = {}): AppParts {
  const gathered = new AppParts();
  const seen = new Set<unknown>();
  const add = (parts: ModulePartsDefinition) => {
    for (const [name, list] of Object.entries(parts) as Array<[keyof ModulePartsDefinition, unknown[] | undefined]>) {
      for (const part of list ?? []) if (!(gathered[name] as unknown[]).includes(part)) (gathered[name] as unknown[]).push(part);
    }
  };
  const visit = (entry: AppModuleImport) => {
    if (entry instanceof Promise || 'forwardRef' in entry || seen.has(entry)) return;
    seen.add(entry);
    const type = 'module' in entry ? entry.module : entry;
    for (const imported of (Reflect.getMetadata(MODULE_METADATA.IMPORTS, type) as AppModuleImport[] | undefined) ?? []) visit(imported);
    if ('module' in entry) for (const imported of entry.imports ?? []) visit(imported);
    const parts = (Reflect.getMetadata(ModuleParts.KEY, type) as ModulePartsDefinition | undefined) ?? {};
    add(parts);
    if (parts.cliCommands) gathered.cliModules.push(entry);
  };
  add(own);
  for (const module of modules) visit(module);
  return gathered;
}
