import { registerAs, type ConfigFactoryKeyHost } from '@nestjs/config';
import type { EnvChecks } from './env-check.js';

/** A configuration namespace as a module's parts list it: its factory, its name and its variables' checks. */
export interface ConfigNamespace {
  (): object;
  readonly token: string;
  readonly checks: EnvChecks;
}

/** Declares a configuration namespace and its variables' checks, in the folder of the module whose parts list it. */
export function defineConfig<T extends object>(
  token: string,
  checks: EnvChecks,
  factory: () => T,
): ConfigNamespace & (() => T) & ConfigFactoryKeyHost<T> {
  return Object.assign(registerAs(token, factory), { token, checks });
}
