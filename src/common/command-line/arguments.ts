import { parseArgs, type ParseArgsConfig } from 'node:util';
import { MAX_PAGE_SIZE, type PageRequest } from '../pagination/keyset-page.js';
import { UsageError } from './command.js';

/** Reads an option's value (`what` names it in errors): undefined for an option left out, unless it is required. */
export type Read<T> = (raw: string | undefined, what: string) => T;
type Values<R extends Record<string, Read<unknown>>> = { [K in keyof R]: ReturnType<R[K]> };

/**
 * Strict parsing of one command's options and --json, with exactly one positional id when `positional` names it,
 * then each option read in the order `options` lists them: the first bad value is the one reported.
 */
export function readArgs<const R extends Record<string, Read<unknown>>>(args: string[], options: R, positional?: string) {
  const config = Object.fromEntries(Object.keys(options).map((name) => [name, { type: 'string' } as const]));
  const parsed = strictParse(args, { ...config, json: { type: 'boolean', default: false } });
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name)) throw new UsageError(`${token.rawName} is given more than once.`);
    seen.add(token.name);
  }
  const [extra] = parsed.positionals.slice(positional === undefined ? 0 : 1);
  if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
  if (positional !== undefined && parsed.positionals.length === 0) throw new UsageError(`Missing ${positional}.`);
  const id = positional === undefined ? 0 : positiveInteger(parsed.positionals[0], positional);
  const values = Object.entries(options).map(([name, read]) => [name, read(parsed.values[name] as string | undefined, `--${name}`)]);
  return { ...(Object.fromEntries(values) as Values<R>), id, json: parsed.values.json as boolean };
}

function strictParse(args: string[], options: NonNullable<ParseArgsConfig['options']>) {
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

/** `read` for an option that was given, undefined for one left out. */
export const optional =
  <T>(read: (raw: string, what: string) => T): Read<T | undefined> =>
  (raw, what) =>
    raw === undefined ? undefined : read(raw, what);

export const required =
  <T>(read: Read<T>): Read<NonNullable<T>> =>
  (raw, what) => {
    if (raw === undefined) throw new UsageError(`${what} is required.`);
    return read(raw, what) as NonNullable<T>;
  };

export const text: Read<string | undefined> = (raw) => raw;

const POSITIVE_INTEGER = /^[1-9][0-9]*$/;

/** Ids and limits: positive integers that a JSON number carries exactly. */
function positiveInteger(raw: string, what: string): number {
  const value = Number(raw);
  if (!POSITIVE_INTEGER.test(raw) || !Number.isSafeInteger(value)) {
    throw new UsageError(`${what} must be a positive integer (got "${raw}").`);
  }
  return value;
}

export const id = optional(positiveInteger);

/** --limit and --cursor: a page of a listing, or undefined (the whole listing) when neither is given. */
export const PAGE_OPTIONS = { limit: id, cursor: text };

export function pageOf({ limit, cursor }: { limit?: number; cursor?: string }): PageRequest | undefined {
  if (limit === undefined && cursor === undefined) return undefined;
  if (limit !== undefined && limit > MAX_PAGE_SIZE) throw new UsageError(`--limit must be at most ${MAX_PAGE_SIZE} (got "${limit}").`);
  return { limit, cursor };
}

export const asSentence = (text: string) => text.replace(/(?<![.?])$/, '.');
