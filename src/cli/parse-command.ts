import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS } from '../modules/keys/index.js';
import {
  parseAuditQuery,
  parseClientName,
  parseDuration,
  parsePage,
  parsePlanChoice,
  parsePositiveInteger,
  parseScopes,
  parseTokenName,
  parseUsagePeriod,
} from './argument-values.js';
import type { CliCommand } from './cli-command.js';
import { UsageError } from './cli.errors.js';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

const STRING = { type: 'string' } as const;
const JSON_OPTION = { json: { type: 'boolean' } } as const;
const PLAN_OPTIONS = { plan: STRING, 'per-minute': STRING, 'per-day': STRING } as const;
const PAGE_OPTIONS = { limit: STRING, cursor: STRING } as const;

const HELP_OPTIONS = ['--help', '-h'];

type CommandParser = (args: string[]) => CliCommand;

/** Checks every value that can be checked without the database; a UsageError for anything wrong. */
export function parseCommand(argv: readonly string[]): CliCommand {
  const [group, action, ...rest] = argv;
  if (group === undefined) throw new UsageError('No command given.');
  if (group === 'help' || argv.some((arg) => HELP_OPTIONS.includes(arg))) return { kind: 'help' };
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
  const { values } = readArgs(args, { name: STRING, ...PLAN_OPTIONS, ...JSON_OPTION });
  return {
    kind: 'clients create',
    name: parseClientName(required(values.name, '--name'), '--name'),
    choice: parsePlanChoice(required(values.plan, '--plan'), values['per-minute'], values['per-day']),
    json: values.json ?? false,
  };
}

function clientsSetPlan(args: string[]): CliCommand {
  const { values, positionals } = readArgs(args, { ...PLAN_OPTIONS, ...JSON_OPTION }, ['CLIENT_ID']);
  return {
    kind: 'clients set-plan',
    clientId: parsePositiveInteger(positionals[0], 'CLIENT_ID'),
    choice: parsePlanChoice(required(values.plan, '--plan'), values['per-minute'], values['per-day']),
    json: values.json ?? false,
  };
}

function clientsGet(args: string[]): CliCommand {
  const { values, positionals } = readArgs(args, JSON_OPTION, ['CLIENT_ID']);
  return { kind: 'clients get', clientId: parsePositiveInteger(positionals[0], 'CLIENT_ID'), json: values.json ?? false };
}

function clientsList(args: string[]): CliCommand {
  const { values } = readArgs(args, { ...PAGE_OPTIONS, ...JSON_OPTION });
  return { kind: 'clients list', page: parsePage(values.limit, values.cursor), json: values.json ?? false };
}

function keysCreate(args: string[]): CliCommand {
  const { values } = readArgs(args, {
    client: STRING,
    name: STRING,
    'expires-in': STRING,
    scopes: STRING,
    ...PLAN_OPTIONS,
    ...JSON_OPTION,
  });
  const expiresInMs = values['expires-in'] === undefined ? undefined : parseDuration(values['expires-in'], '--expires-in');
  const scopes = values.scopes === undefined ? undefined : parseScopes(values.scopes, '--scopes');
  const json = values.json ?? false;
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
  const name = values.name === undefined ? `${values.plan} client` : parseClientName(values.name, '--name');
  const choice = parsePlanChoice(values.plan, values['per-minute'], values['per-day']);
  return { kind: 'keys create', owner: { newClient: { name, ...choice } }, expiresInMs, scopes, json };
}

function keysList(args: string[]): CliCommand {
  const { values } = readArgs(args, { client: STRING, ...PAGE_OPTIONS, ...JSON_OPTION });
  const clientId = values.client === undefined ? undefined : parsePositiveInteger(values.client, '--client');
  return { kind: 'keys list', clientId, page: parsePage(values.limit, values.cursor), json: values.json ?? false };
}

function keysRoll(args: string[]): CliCommand {
  const { values, positionals } = readArgs(args, { overlap: STRING, ...JSON_OPTION }, ['KEY_ID']);
  const overlapMs =
    values.overlap === undefined
      ? DEFAULT_OVERLAP_SECONDS * 1000
      : parseDuration(values.overlap, '--overlap', { maxMs: MAX_OVERLAP_SECONDS * 1000, zero: true });
  return { kind: 'keys roll', keyId: parsePositiveInteger(positionals[0], 'KEY_ID'), overlapMs, json: values.json ?? false };
}

function keysRevoke(args: string[]): CliCommand {
  const { values, positionals } = readArgs(args, JSON_OPTION, ['KEY_ID']);
  return { kind: 'keys revoke', keyId: parsePositiveInteger(positionals[0], 'KEY_ID'), json: values.json ?? false };
}

function auditList(args: string[]): CliCommand {
  const { values } = readArgs(args, { client: STRING, action: STRING, cursor: STRING, limit: STRING, ...JSON_OPTION });
  const query = parseAuditQuery({
    clientId: values.client === undefined ? undefined : parsePositiveInteger(values.client, '--client'),
    action: values.action,
    cursor: values.cursor,
    limit: values.limit === undefined ? undefined : parsePositiveInteger(values.limit, '--limit'),
  });
  return { kind: 'audit list', query, json: values.json ?? false };
}

function usage(args: string[]): CliCommand {
  const { values } = readArgs(args, { client: STRING, from: STRING, to: STRING, ...JSON_OPTION });
  return {
    kind: 'usage',
    clientId: parsePositiveInteger(required(values.client, '--client'), '--client'),
    period: parseUsagePeriod(values.from, values.to),
    json: values.json ?? false,
  };
}

function adminTokensCreate(args: string[]): CliCommand {
  const { values } = readArgs(args, { name: STRING, ...JSON_OPTION });
  return { kind: 'admin-tokens create', name: parseTokenName(required(values.name, '--name')), json: values.json ?? false };
}

function adminTokensList(args: string[]): CliCommand {
  const { values } = readArgs(args, JSON_OPTION);
  return { kind: 'admin-tokens list', json: values.json ?? false };
}

function adminTokensRevoke(args: string[]): CliCommand {
  const { values, positionals } = readArgs(args, JSON_OPTION, ['TOKEN_ID']);
  return { kind: 'admin-tokens revoke', tokenId: parsePositiveInteger(positionals[0], 'TOKEN_ID'), json: values.json ?? false };
}

/** Strict parsing of one command's options, with exactly the positional arguments it names. */
function readArgs<const O extends OptionsConfig>(args: string[], options: O, positionalNames: readonly string[] = []) {
  const parsed = strictParse(args, options);
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
      throw new UsageError(sentences.join(' ').replace(/(?<![.?])$/, '.'));
    }
    throw error;
  }
}

function required(value: string | undefined, option: string): string {
  if (value === undefined) throw new UsageError(`${option} is required.`);
  return value;
}
