import { parseArgs, type ParseArgsConfig } from 'node:util';
import { MAX_PAGE_SIZE, ValidationFailedException, type PageRequest } from '../common/index.js';
import { ADMIN_TOKEN_NAME_MAX_LENGTH } from '../modules/admin/index.js';
import { checkAuditQuery, type AuditQuery } from '../modules/audit/index.js';
import { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS } from '../modules/keys/index.js';
import { clientName, planChoice, PlanRuleError, type PlanChoice } from '../modules/plans/index.js';
import { InvalidUsagePeriodException, usagePeriod, type UsagePeriodQuery } from '../modules/usage/index.js';
import { UsageError } from './cli.errors.js';
import { AUDIT_ACTIONS, SCOPE_NAMES } from './server-catalogues.js';

export type KeyOwner = { clientId: number } | { newClient: { name: string } & PlanChoice };

/** A fully validated command line: executing it needs no further checks of the arguments. */
export type CliCommand =
  | { kind: 'help' }
  | { kind: 'clients create'; name: string; choice: PlanChoice; json: boolean }
  | { kind: 'clients set-plan'; clientId: number; choice: PlanChoice; json: boolean }
  | { kind: 'clients get'; clientId: number; json: boolean }
  | { kind: 'clients list'; page?: PageRequest; json: boolean }
  | { kind: 'keys create'; owner: KeyOwner; expiresInMs?: number; scopes?: string[]; json: boolean }
  | { kind: 'keys list'; clientId?: number; page?: PageRequest; json: boolean }
  | { kind: 'keys roll'; keyId: number; overlapMs: number; json: boolean }
  | { kind: 'keys revoke'; keyId: number; json: boolean }
  | { kind: 'audit list'; query: AuditQuery; json: boolean }
  | { kind: 'usage'; clientId: number; period: UsagePeriodQuery; json: boolean }
  | { kind: 'admin-tokens create'; name: string; json: boolean }
  | { kind: 'admin-tokens list'; json: boolean }
  | { kind: 'admin-tokens revoke'; tokenId: number; json: boolean };

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

const STRING = { type: 'string' } as const;
const PLAN_OPTIONS = { plan: STRING, 'per-minute': STRING, 'per-day': STRING } as const;
const PAGE_OPTIONS = { limit: STRING, cursor: STRING } as const;

type CommandParser = (args: string[]) => CliCommand;

/** Checks every value that can be checked without the database; a UsageError for anything wrong. */
export function parseCommand(argv: readonly string[]): CliCommand {
  const [group, action, ...rest] = argv;
  if (group === undefined) throw new UsageError('No command given.');
  if (group === 'help' || argv.some((arg) => arg === '--help' || arg === '-h')) return { kind: 'help' };
  const actions = Object.hasOwn(COMMANDS, group) ? COMMANDS[group] : undefined;
  if (!actions) throw new UsageError(`Unknown command "${group}"; the commands are ${COMMAND_LIST.format(Object.keys(COMMANDS))}.`);
  if (typeof actions === 'function') return actions(argv.slice(1));
  const parse = action !== undefined && Object.hasOwn(actions, action) ? actions[action] : undefined;
  if (!parse) {
    const known = Object.keys(actions).join(', ');
    throw new UsageError(
      action === undefined
        ? `"${group}" needs one of: ${known}.`
        : `Unknown command "${group} ${action}"; "${group}" takes one of: ${known}.`,
    );
  }
  return parse(rest);
}

/** A group of actions (`keys create`), or a command of one word (`usage`). */
const COMMANDS: Readonly<Record<string, CommandParser | Readonly<Record<string, CommandParser>>>> = {
  clients: { create: clientsCreate, 'set-plan': clientsSetPlan, get: clientsGet, list: clientsList },
  keys: { create: keysCreate, list: keysList, roll: keysRoll, revoke: keysRevoke },
  audit: { list: auditList },
  usage,
  'admin-tokens': { create: adminTokensCreate, list: adminTokensList, revoke: adminTokensRevoke },
};
const COMMAND_LIST = new Intl.ListFormat('en', { type: 'conjunction' });

function clientsCreate(args: string[]): CliCommand {
  const { values } = readArgs(args, { name: STRING, ...PLAN_OPTIONS });
  const name = asUsage(() => clientName(required(values.name, '--name'), '--name'));
  return { kind: 'clients create', name, choice: parsePlanChoice(required(values.plan, '--plan'), values), json: values.json };
}

function clientsSetPlan(args: string[]): CliCommand {
  const { values, positionals } = readArgs(args, PLAN_OPTIONS, ['CLIENT_ID']);
  const clientId = parsePositiveInteger(positionals[0], 'CLIENT_ID');
  return { kind: 'clients set-plan', clientId, choice: parsePlanChoice(required(values.plan, '--plan'), values), json: values.json };
}

function clientsGet(args: string[]): CliCommand {
  const { values, positionals } = readArgs(args, {}, ['CLIENT_ID']);
  return { kind: 'clients get', clientId: parsePositiveInteger(positionals[0], 'CLIENT_ID'), json: values.json };
}

function clientsList(args: string[]): CliCommand {
  const { values } = readArgs(args, PAGE_OPTIONS);
  return { kind: 'clients list', page: parsePage(values.limit, values.cursor), json: values.json };
}

function keysCreate(args: string[]): CliCommand {
  const { values } = readArgs(args, { client: STRING, name: STRING, 'expires-in': STRING, scopes: STRING, ...PLAN_OPTIONS });
  const expiresInMs = optional(values['expires-in'], '--expires-in', parseDuration);
  const scopes = optional(values.scopes, '--scopes', parseScopes);
  const { json } = values;
  if (values.client !== undefined) {
    if (values.plan !== undefined)
      throw new UsageError('--client and --plan cannot be used together: a key joins an existing client or a new one.');
    for (const option of ['name', 'per-minute', 'per-day'] as const) {
      if (values[option] !== undefined)
        throw new UsageError(`--${option} only goes with --plan (a new client); the client of --client already has one.`);
    }
    return { kind: 'keys create', owner: { clientId: parsePositiveInteger(values.client, '--client') }, expiresInMs, scopes, json };
  }
  if (values.plan === undefined)
    throw new UsageError('keys create needs --client CLIENT_ID (an existing client) or --plan PLAN (a new client).');
  const name = values.name === undefined ? `${values.plan} client` : asUsage(() => clientName(values.name!, '--name'));
  const choice = parsePlanChoice(values.plan, values);
  return { kind: 'keys create', owner: { newClient: { name, ...choice } }, expiresInMs, scopes, json };
}

function keysList(args: string[]): CliCommand {
  const { values } = readArgs(args, { client: STRING, ...PAGE_OPTIONS });
  const clientId = optional(values.client, '--client', parsePositiveInteger);
  return { kind: 'keys list', clientId, page: parsePage(values.limit, values.cursor), json: values.json };
}

function keysRoll(args: string[]): CliCommand {
  const { values, positionals } = readArgs(args, { overlap: STRING }, ['KEY_ID']);
  const overlapMs =
    values.overlap === undefined
      ? DEFAULT_OVERLAP_SECONDS * 1000
      : parseDuration(values.overlap, '--overlap', { maxMs: MAX_OVERLAP_SECONDS * 1000, zero: true });
  return { kind: 'keys roll', keyId: parsePositiveInteger(positionals[0], 'KEY_ID'), overlapMs, json: values.json };
}

function keysRevoke(args: string[]): CliCommand {
  const { values, positionals } = readArgs(args, {}, ['KEY_ID']);
  return { kind: 'keys revoke', keyId: parsePositiveInteger(positionals[0], 'KEY_ID'), json: values.json };
}

const AUDIT_OPTIONS: Readonly<Record<string, string>> = { clientId: '--client', action: '--action', cursor: '--cursor', limit: '--limit' };

function auditList(args: string[]): CliCommand {
  const { values } = readArgs(args, { client: STRING, action: STRING, ...PAGE_OPTIONS });
  const query = {
    clientId: optional(values.client, '--client', parsePositiveInteger),
    action: values.action,
    cursor: values.cursor,
    limit: optional(values.limit, '--limit', parsePositiveInteger),
  };
  asUsage(() => checkAuditQuery(query, AUDIT_ACTIONS), AUDIT_OPTIONS);
  return { kind: 'audit list', query, json: values.json };
}

function usage(args: string[]): CliCommand {
  const { values } = readArgs(args, { client: STRING, from: STRING, to: STRING });
  const clientId = parsePositiveInteger(required(values.client, '--client'), '--client');
  const period = { ...(values.from !== undefined && { from: values.from }), ...(values.to !== undefined && { to: values.to }) };
  asUsage(() => usagePeriod(period, new Date())); // the defaults end today
  return { kind: 'usage', clientId, period, json: values.json };
}

function adminTokensCreate(args: string[]): CliCommand {
  const { values } = readArgs(args, { name: STRING });
  const name = required(values.name, '--name').trim();
  if (!name || name.length > ADMIN_TOKEN_NAME_MAX_LENGTH) {
    throw new UsageError(`--name must be 1 to ${ADMIN_TOKEN_NAME_MAX_LENGTH} characters, not only white space.`);
  }
  return { kind: 'admin-tokens create', name, json: values.json };
}

function adminTokensList(args: string[]): CliCommand {
  return { kind: 'admin-tokens list', json: readArgs(args, {}).values.json };
}

function adminTokensRevoke(args: string[]): CliCommand {
  const { values, positionals } = readArgs(args, {}, ['TOKEN_ID']);
  return { kind: 'admin-tokens revoke', tokenId: parsePositiveInteger(positionals[0], 'TOKEN_ID'), json: values.json };
}

/** Strict parsing of one command's options and --json, with exactly the positional arguments it names. */
function readArgs<const O extends OptionsConfig>(args: string[], options: O, positionalNames: readonly string[] = []) {
  const parsed = strictParse(args, { ...options, json: { type: 'boolean', default: false } } as const);
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name)) throw new UsageError(`${token.rawName} is given more than once.`);
    seen.add(token.name);
  }
  const [extra] = parsed.positionals.slice(positionalNames.length);
  if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
  const missing = positionalNames[parsed.positionals.length];
  if (missing !== undefined) throw new UsageError(`Missing ${missing}.`);
  return parsed;
}

function strictParse<const O extends OptionsConfig>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    // Node's parser errors are usage errors, told by code (under Jest they come from another realm); its
    // advice on `--` and `--name=-XYZ` is left out, as it mostly misleads here.
    if (String((error as { code?: unknown } | null)?.code).startsWith('ERR_PARSE_ARGS_')) {
      const sentences = (error as Error).message.split(/(?<=[.?])\s+/).filter((sentence) => !sentence.startsWith('To specify'));
      throw new UsageError(asSentence(sentences.join(' ')));
    }
    throw error;
  }
}

function required(value: string | undefined, option: string): string {
  if (value === undefined) throw new UsageError(`${option} is required.`);
  return value;
}

const POSITIVE_INTEGER = /^[1-9][0-9]*$/;

/** Ids and limits: positive integers that a JSON number carries exactly. */
function parsePositiveInteger(raw: string, what: string): number {
  const value = Number(raw);
  if (!POSITIVE_INTEGER.test(raw) || !Number.isSafeInteger(value)) {
    throw new UsageError(`${what} must be a positive integer (got "${raw}").`);
  }
  return value;
}

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** Keeps expiry instants far inside what every supported database stores. */
const MAX_DURATION_MS = 36_500 * UNIT_MS.d;

/** A number and a unit, at most `maxMs` (a whole number of days), and 0 only where `zero` allows it. */
function parseDuration(raw: string, what: string, { maxMs = MAX_DURATION_MS, zero = false } = {}): number {
  const match = /^(0|[1-9][0-9]*)([smhd])$/.exec(raw);
  const ms = match && (zero || match[1] !== '0') ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : Number.NaN;
  if (!(ms <= maxMs)) {
    throw new UsageError(
      `${what} must be a ${zero ? '' : 'positive '}number and a unit (s, m, h or d) such as 90s, 45m, 12h or 30d, ` +
        `at most ${maxMs / UNIT_MS.d}d (got "${raw}").`,
    );
  }
  return ms;
}

/** --limit and --cursor: a page of a listing, or undefined (the whole listing) when neither is given. */
function parsePage(limit: string | undefined, cursor: string | undefined): PageRequest | undefined {
  if (limit === undefined && cursor === undefined) return undefined;
  const size = optional(limit, '--limit', parsePositiveInteger);
  if (size !== undefined && size > MAX_PAGE_SIZE) throw new UsageError(`--limit must be at most ${MAX_PAGE_SIZE} (got "${limit}").`);
  return { limit: size, cursor };
}

/**
 * The modules' own rules (the plans', the audit log's, a usage period's), which the admin API answers with 400: broken
 * by an argument, a usage error, exit 2 before the database is opened; `options` names a field's option.
 */
function asUsage<T>(check: () => T, options: Readonly<Record<string, string>> = {}): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof PlanRuleError || error instanceof InvalidUsagePeriodException) throw new UsageError(asSentence(error.message));
    if (!(error instanceof ValidationFailedException)) throw error;
    const messages = (error.details ?? []).map(({ field, message }) => message.replace(field, options[field] ?? field));
    throw new UsageError(asSentence(messages.join('; ')));
  }
}

const asSentence = (text: string) => text.replace(/(?<![.?])$/, '.');

/** `parse(raw, what)` for an option that was given, undefined for one left out. */
function optional<T>(raw: string | undefined, what: string, parse: (raw: string, what: string) => T): T | undefined {
  return raw === undefined ? undefined : parse(raw, what);
}

function parsePlanChoice(plan: string, values: { 'per-minute'?: string; 'per-day'?: string }): PlanChoice {
  const custom = {
    perMinute: optional(values['per-minute'], '--per-minute', parsePositiveInteger),
    perDay: optional(values['per-day'], '--per-day', parsePositiveInteger),
  };
  return asUsage(() => planChoice(plan, custom, { perMinute: '--per-minute', perDay: '--per-day' }));
}

/** Comma-separated, so the list needs no quoting in a shell: `--scopes pets:read,keys:manage`. */
function parseScopes(raw: string, what: string): string[] {
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new UsageError(`${what} needs at least one scope of ${SCOPE_NAMES.join(', ')}.`);
  const unknown = names.find((name) => !SCOPE_NAMES.includes(name));
  if (unknown !== undefined) throw new UsageError(`Unknown scope "${unknown}" in ${what}; choose from ${SCOPE_NAMES.join(', ')}.`);
  return names;
}
