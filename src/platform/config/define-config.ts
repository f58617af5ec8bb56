import { registerAs, type ConfigFactoryKeyHost } from '@nestjs/config';

/** A check of one environment variable: undefined when the value is good, else what is wrong ("must be ..."). */
export type EnvCheck = (value: string, env: Record<string, unknown>) => string | undefined;

type EnvChecks = Record<string, EnvCheck>;

/** A configuration namespace as a module's parts list it: its factory, its name and its variables' checks. */
export interface ConfigNamespace {
  (): object;
  readonly token: string;
  readonly checks: EnvChecks;
}

export function defineConfig<T extends object>(
  token: string,
  checks: EnvChecks,
  factory: () => T,
): ConfigNamespace & (() => T) & ConfigFactoryKeyHost<T> {
  return Object.assign(registerAs(token, factory), { token, checks });
}

export const isInteger =
  (min: number, max: number): EnvCheck =>
  (value) =>
    /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max ? undefined : `must be an integer from ${min} to ${max}`;

export const isOneOf =
  (...allowed: string[]): EnvCheck =>
  (value) =>
    allowed.includes(value) ? undefined : `must be one of ${allowed.join(', ')}`;

export const isInstant: EnvCheck = (value) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value))
    ? undefined
    : 'must be an ISO 8601 instant such as 2030-12-05T00:00:00Z';

export const commaList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
