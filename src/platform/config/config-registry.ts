import { registerAs, type ConfigFactoryKeyHost } from '@nestjs/config';
import type { EnvChecks } from './env-check.js';

/** A registerAs namespace together with the checks of the variables it reads. */
export type ConfigNamespace<T extends object = object> = (() => T) & ConfigFactoryKeyHost<T> & { readonly checks: EnvChecks };

const namespaces = new Map<string, ConfigNamespace>();

/**
 * Declares a module's configuration from its own folder: the namespace it reads and its variables'
 * checks, registered so the configuration module loads them all and validates them in one message.
 */
export function defineConfig<T extends object>(token: string, checks: EnvChecks, factory: () => T): ConfigNamespace<T> {
  if (namespaces.has(token)) throw new Error(`The configuration namespace "${token}" is defined twice.`);
  for (const [other, { checks: theirs }] of namespaces) {
    const shared = Object.keys(checks).find((name) => name in theirs);
    if (shared) throw new Error(`${shared} is checked by two configuration namespaces ("${other}" and "${token}").`);
  }
  const namespace = Object.assign(registerAs(token, factory), { checks });
  namespaces.set(token, namespace as unknown as ConfigNamespace);
  return namespace;
}

export const configNamespaces = (): ConfigNamespace[] => [...namespaces.values()];
