import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AppParts, ValidationFailedException } from '../../common/index.js';
import { REQUIRED_SCOPE } from './required-scope.decorator.js';

/** How many scopes a list may name: more than the catalogue will ever hold. */
export const MAX_SCOPES = 32;

/**
 * What a key may do: the scopes every module of the application declares (its `@ModuleParts`), in
 * module-list order. Checked at boot: a route may require only a declared scope.
 */
@Injectable()
export class ScopeCatalogue implements OnApplicationBootstrap {
  readonly names: readonly string[];
  /** Held by a key made without a list, and by every key from before scopes. */
  readonly defaults: readonly string[];

  constructor(
    parts: AppParts,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {
    this.names = parts.scopes.map(({ name }) => name);
    this.defaults = parts.scopes.filter(({ byDefault }) => byDefault).map(({ name }) => name);
  }

  /** The scopes a new key gets: the defaults when none are named, else each named one once, in catalogue order. */
  resolve(scopes: readonly string[] | undefined): string[] {
    if (scopes === undefined) return [...this.defaults];
    const unknown = scopes.filter((scope) => !this.names.includes(scope));
    if (unknown.length > 0) throw ValidationFailedException.forField('scopes', `each of scopes must be one of ${this.names.join(', ')}`);
    return this.names.filter((name) => scopes.includes(name));
  }

  /** A stored list as this release shows it: names it does not declare (a newer release's) are left out. */
  known(scopes: readonly string[]): string[] {
    return scopes.filter((scope) => this.names.includes(scope));
  }

  onApplicationBootstrap(): void {
    for (const controller of this.discovery.getControllers()) {
      const prototype = Object.getPrototypeOf(controller.instance) as Record<string, () => unknown>;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const scope = this.reflector.getAllAndOverride<string | undefined>(REQUIRED_SCOPE, [prototype[method], controller.metatype!]);
        if (scope !== undefined && !this.names.includes(scope)) {
          throw new Error(`${controller.name}.${method} requires the scope "${scope}", which no module declares in its @ModuleParts`);
        }
      }
    }
  }
}

/** The column's form: space-separated like an OAuth scope string (RFC 6749). */
export const scopeString = {
  to: (scopes: readonly string[]): string => scopes.join(' '),
  from: (stored: string): string[] => stored.split(' ').filter(Boolean),
};
