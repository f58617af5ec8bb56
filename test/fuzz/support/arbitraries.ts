import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { WireBytes } from './raw-http.js';

/**
 * Generators of hostile and ordinary input for the HTTP API, as small reusable arbitraries.
 * Each produces what goes on the wire (JSON text, header values, path segments, query
 * strings); the oracles in properties.ts work out what the service must answer from the same
 * bytes, not from how they were generated.
 */

export const MAX_ID = 9007199254740991;
export const BODY_LIMIT_BYTES = 16 * 1024;
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;

/** Every code point with the Unicode White_Space property. */
export const UNICODE_WHITE_SPACE = [
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  ' ',
  '\u0085',
  '\u00a0',
  '\u1680',
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
];
/** ECMAScript's \s but not White_Space: white space by the contract's pattern, so a name of it alone is refused. */
const PATTERN_ONLY_SPACE = ['\ufeff'];
/** Look like white space but are neither White_Space nor ECMAScript \s (so a name of them is a valid name). */
const NOT_WHITE_SPACE = ['\u200b', '\u180e', '\u2060', '\u00ad'];
/** C0 controls and DEL: refused in names. C1 controls (U+0080 to U+009F) are not. */
const CONTROL_CHARACTERS = [...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)), '\u007f'];

const weighted = <T>(arbitrary: fc.Arbitrary<T>, weight: number) => ({ arbitrary, weight });

/** Inserts `piece` into `text` at a generated position. */
const insertedInto = (text: fc.Arbitrary<string>, piece: fc.Arbitrary<string>) =>
  fc
    .tuple(text, piece, fc.nat())
    .map(([base, inserted, at]) => base.slice(0, at % (base.length + 1)) + inserted + base.slice(at % (base.length + 1)));

// ---------------------------------------------------------------------------------------------
// JSON fragments: names, ids, statuses, keys

/** Names that are valid: 1 to 100 code points, not only white space, no C0/DEL controls. */
export const validName = fc
  .oneof(
    weighted(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 30 }), 3),
    weighted(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 25 }), 2),
    weighted(
      fc.constantFrom('Rex', 'Ünïcødé 🐕', '  padded  ', '猫', '🐈'.repeat(100), 'x'.repeat(100), '\u200b', 'a\u0085b', '\u00ad'),
      1,
    ),
  )
  .filter((name) => isValidNameOracle(name));

/** Any name-like string, valid or not. */
export const anyName = fc.oneof(
  weighted(validName, 4),
  weighted(fc.constant(''), 1),
  weighted(fc.string({ unit: fc.constantFrom(...UNICODE_WHITE_SPACE), minLength: 1, maxLength: 8 }), 2),
  weighted(
    fc.string({ unit: fc.constantFrom(...UNICODE_WHITE_SPACE, ...PATTERN_ONLY_SPACE, ...NOT_WHITE_SPACE), minLength: 1, maxLength: 6 }),
    1,
  ),
  weighted(insertedInto(validName, fc.constantFrom(...CONTROL_CHARACTERS)), 2),
  weighted(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), 2),
  // Around the 100 code point limit, in characters of one, two (UTF-16) and four (UTF-8) bytes.
  weighted(
    fc.tuple(fc.constantFrom('x', 'é', '猫', '🐈', '👨‍👩‍👧'), fc.integer({ min: 95, max: 105 })).map(([c, n]) => c.repeat(n)),
    2,
  ),
  weighted(fc.string({ unit: 'grapheme', minLength: 90, maxLength: 140 }), 1),
  // Lone surrogates: valid JSON escapes, but not Unicode text.
  weighted(insertedInto(validName, fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff')), 1),
);

/** categoryId as JSON text: valid ids, the edges of the range, and numbers JSON.parse rounds. */
export const categoryIdText: fc.Arbitrary<string> = fc.oneof(
  weighted(
    fc.integer({ min: 1, max: MAX_ID }).map((n) => String(n)),
    5,
  ),
  weighted(fc.constantFrom('1', String(MAX_ID), '1.0', '1e0', '1E2', '0.1e1', '10e-1'), 2),
  weighted(
    fc.constantFrom(
      '0',
      '-0',
      '-1',
      '0.0',
      '9007199254740992',
      '9007199254740993',
      '18446744073709551616',
      '1e400',
      '-1e400',
      '1e-400',
      '1e21',
      '1.5',
      '9007199254740991.4',
      '123456789012345678901234567890',
      '4.9e-324',
    ),
    3,
  ),
  weighted(
    fc.double().map((d) => JSON.stringify(d)),
    1,
  ),
  weighted(
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => n.toString()),
    1,
  ),
  weighted(fc.constantFrom('"1"', '" 1"', 'true', 'null', '[]', '[1]', '{}', '{"id":1}', '"9007199254740991"'), 2),
);

export const statusText: fc.Arbitrary<string> = fc.oneof(
  weighted(
    fc.constantFrom(...PET_STATUSES).map((s) => JSON.stringify(s)),
    6,
  ),
  weighted(fc.constantFrom('null', '"Available"', '"SOLD"', '"sold "', '""', '0', '["sold"]', '{"status":"sold"}', 'true'), 2),
  weighted(
    fc.string({ maxLength: 10 }).map((s) => JSON.stringify(s)),
    1,
  ),
);

/** A key written as plain JSON text or with every character \u-escaped (so `"__proto__"` hides). */
const keyText = (key: string) =>
  fc.oneof(
    weighted(fc.constant(JSON.stringify(key)), 4),
    weighted(fc.constant(`"${[...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`), 1),
  );

/** JSON that tries to pollute prototypes: the payload rides under `__proto__`, `constructor`, `prototype`. */
export const pollutionText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('__proto__', 'constructor', 'prototype'),
    fc.constantFrom(
      '{"polluted":"yes"}',
      '{"prototype":{"polluted":"yes"}}',
      '{"__proto__":{"polluted":"yes"}}',
      '{"toString":"x","polluted":1}',
    ),
    fc.integer({ min: 0, max: 4 }),
  )
  .chain(([key, payload, depth]) =>
    keyText(key).map((k) => {
      let text = `{${k}:${payload}}`;
      for (let i = 0; i < depth; i++) text = i % 2 ? `[${text}]` : `{"a":${text}}`;
      return text;
    }),
  );

/** Deeply nested JSON (arrays or objects), thousands of levels, small enough to fit the body limit. */
export const deepJsonText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('array', 'object', 'mixed'), fc.integer({ min: 33, max: 5000 }), fc.constantFrom('1', '"x"', '{}', '[]'))
  .map(([shape, depth, leaf]) => {
    if (shape === 'array') return `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
    if (shape === 'object') return `${'{"a":'.repeat(Math.min(depth, 2700))}${leaf}${'}'.repeat(Math.min(depth, 2700))}`;
    const levels = Math.min(depth, 3000);
    return `${'[{"a":'.repeat(levels / 2)}${leaf}${'}]'.repeat(levels / 2)}`;
  });

/** An unknown property: `id`, the prototype names, look-alikes of known names, random keys. */
const unknownMember: fc.Arbitrary<string> = fc.oneof(
  weighted(
    fc
      .tuple(fc.constantFrom('id', 'Name', 'categoryid', 'name ', 'status\u0000', 'toString', 'hasOwnProperty'), categoryIdText)
      .chain(([k, v]) => keyText(k).map((key) => `${key}:${v}`)),
    2,
  ),
  weighted(
    fc
      .tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), pollutionText)
      .chain(([k, v]) => keyText(k).map((key) => `${key}:${v}`)),
    2,
  ),
  weighted(
    fc.tuple(fc.string({ maxLength: 300 }), fc.jsonValue({ maxDepth: 2 })).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`),
    2,
  ),
  weighted(
    deepJsonText.map((v) => `"extra":${v}`),
    1,
  ),
);

// ---------------------------------------------------------------------------------------------
// Bodies of POST /v1/pets

/** The JSON text of a body that is valid: the happy path. */
export const validPetText: fc.Arbitrary<string> = fc
  .record(
    { name: validName, categoryId: fc.integer({ min: 1, max: MAX_ID }), status: fc.constantFrom(...PET_STATUSES) },
    { requiredKeys: ['name', 'categoryId'] },
  )
  .map((pet) => JSON.stringify(pet));

/** Pet-shaped objects: each field present or not, valid or not, in any order, duplicated, with extras. */
export const petLikeText: fc.Arbitrary<string> = fc
  .record({
    name: fc.option(
      fc.oneof(
        weighted(
          anyName.map((n) => JSON.stringify(n)),
          8,
        ),
        weighted(categoryIdText, 1),
        weighted(deepJsonText, 1),
        weighted(pollutionText, 1),
      ),
      { freq: 8, nil: undefined },
    ),
    categoryId: fc.option(fc.oneof(weighted(categoryIdText, 10), weighted(deepJsonText, 1), weighted(pollutionText, 1)), {
      freq: 8,
      nil: undefined,
    }),
    status: fc.option(fc.oneof(weighted(statusText, 10), weighted(deepJsonText, 1), weighted(pollutionText, 1)), {
      freq: 2,
      nil: undefined,
    }),
    extras: fc.array(unknownMember, { maxLength: 2 }),
    duplicates: fc.array(
      fc.oneof(
        anyName.map((n) => `"name":${JSON.stringify(n)}`),
        categoryIdText.map((v) => `"categoryId":${v}`),
        statusText.map((v) => `"status":${v}`),
      ),
      { maxLength: 2 },
    ),
    space: fc.constantFrom('', ' ', '\n  ', '\t'),
  })
  .chain(({ name, categoryId, status, extras, duplicates, space }) => {
    const members = [
      ...(name === undefined ? [] : [keyText('name').map((k) => `${k}:${name}`)]),
      ...(categoryId === undefined ? [] : [keyText('categoryId').map((k) => `${k}:${categoryId}`)]),
      ...(status === undefined ? [] : [keyText('status').map((k) => `${k}:${status}`)]),
    ];
    return fc
      .tuple(...members, fc.constant(''))
      .map((texts) => [...texts.slice(0, -1), ...extras, ...duplicates])
      .chain((all) => fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }))
      .map((all) => `{${space}${all.join(`,${space}`)}${space}}`);
  });

/** Bodies around and over the 16 KiB limit: padded valid JSON, huge names, huge unknown values. */
export const sizedText: fc.Arbitrary<string> = fc.oneof(
  // Valid JSON padded with white space to exactly the limit, one byte over, or far over.
  fc
    .tuple(validPetText, fc.constantFrom(0, 1, 100, 50_000))
    .map(([text, over]) => text + ' '.repeat(Math.max(0, BODY_LIMIT_BYTES - Buffer.byteLength(text) + over))),
  fc
    .tuple(fc.constantFrom('x', 'é', '🐈'), fc.integer({ min: 4_000, max: 40_000 }))
    .map(([c, n]) => JSON.stringify({ name: c.repeat(n), categoryId: 1 })),
  fc.integer({ min: 16_000, max: 20_000 }).map((n) => JSON.stringify({ name: 'Rex', categoryId: 1, notes: 'n'.repeat(n) })),
);

/** Byte sequences that are not UTF-8: stray continuation, overlong, surrogates, truncated, out of range. */
const invalidUtf8 = fc.constantFrom(
  [0x80],
  [0xbf],
  [0xc0, 0x80],
  [0xc1, 0xbf],
  [0xe0, 0x80, 0x80],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf5],
  [0xff],
  [0xfe, 0xff],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x90],
  [0xc3],
);

/** Any JSON text we can produce, as bytes, with invalid UTF-8 spliced in somewhere (often inside the name). */
const invalidUtf8Bytes: fc.Arbitrary<Buffer> = fc
  .tuple(fc.oneof(validPetText, petLikeText), invalidUtf8, fc.nat(), fc.boolean())
  .map(([text, bad, at, inName]) => {
    const bytes = Buffer.from(text);
    const nameAt = text.indexOf('"name":"');
    const position = inName && nameAt >= 0 ? Buffer.byteLength(text.slice(0, nameAt + 8)) : at % (bytes.length + 1);
    return Buffer.concat([bytes.subarray(0, position), Buffer.from(bad), bytes.subarray(position)]);
  });

/** Text that is not JSON, or JSON cut short. */
const brokenText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.tuple(validPetText, fc.nat()).map(([text, cut]) => text.slice(0, cut % text.length)),
  fc.constantFrom(
    '{"name":"Rex","categoryId":1,}',
    "{'name':'Rex','categoryId':1}",
    '{"name":"Rex","categoryId":01}',
    '{"name":"Rex","categoryId":NaN}',
    '{"name":"Rex","categoryId":Infinity}',
    '{"name":"Rex","categoryId":0x10}',
    '{"name":"Rex" "categoryId":1}',
    '{"name":"Re\x01x","categoryId":1}',
    '{"name":"Rex","categoryId":1}{}',
    '{"name":"Rex","categoryId":1} x',
    '/* c */{"name":"Rex","categoryId":1}',
    '"\\ud800"',
    '{"name":"\\x41","categoryId":1}',
  ),
  fc.string({ unit: fc.constantFrom(...UNICODE_WHITE_SPACE), minLength: 1, maxLength: 5 }),
);

/** Every body the createPet fuzzer sends, as raw bytes (printed readably in counterexamples). */
export const createPetBody: fc.Arbitrary<WireBytes> = fc
  .oneof(
    weighted(validPetText.map(Buffer.from), 7),
    weighted(petLikeText.map(Buffer.from), 8),
    weighted(
      fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v))),
      2,
    ),
    weighted(fc.oneof(pollutionText, deepJsonText).map(Buffer.from), 1),
    weighted(sizedText.map(Buffer.from), 1),
    weighted(invalidUtf8Bytes, 1),
    weighted(brokenText.map(Buffer.from), 2),
    weighted(fc.constant(Buffer.alloc(0)), 1),
  )
  .map((bytes) => new WireBytes(bytes));

// ---------------------------------------------------------------------------------------------
// Content-Type headers

export type ContentTypeKind = 'json' | 'not-json' | 'odd';

export interface ContentTypeCase {
  /** The header value; undefined sends no Content-Type at all. */
  value: string | undefined;
  /** json: must be read as JSON; not-json: must be refused (415) when a body is sent; odd: either. */
  kind: ContentTypeKind;
}

const randomCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));

/** A header value node:http will send: visible ASCII, space, tab and obs-text (Latin-1). */
export const headerValueText = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(
      weighted(
        fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
        10,
      ),
      weighted(fc.constant('\t'), 1),
      weighted(
        fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
        1,
      ),
    ),
    maxLength,
  });

const token = fc.stringMatching(/^[a-z0-9!#$%&'*+.^_`|~-]{1,10}$/);

export const contentType: fc.Arbitrary<ContentTypeCase> = fc.oneof(
  weighted(
    fc
      .tuple(
        randomCase('application/json'),
        fc.constantFrom('', '; charset=utf-8', ';charset=UTF-8', '; charset="utf-8"', ' ; Charset=Utf-8'),
        fc.option(
          fc.tuple(token, token).map(([k, v]) => `; ${k === 'charset' ? 'x' : k}=${v}`),
          { freq: 4, nil: '' },
        ),
      )
      .map(([type, charset, extra]) => ({ value: `${type}${charset}${extra}`, kind: 'json' as const })),
    30,
  ),
  weighted(
    fc.constantFrom<ContentTypeCase>(
      { value: undefined, kind: 'not-json' },
      { value: '', kind: 'not-json' },
      { value: 'text/plain', kind: 'not-json' },
      { value: 'text/json', kind: 'not-json' },
      { value: 'text/plain; charset=utf-8', kind: 'not-json' },
      { value: 'application/x-www-form-urlencoded', kind: 'not-json' },
      { value: 'multipart/form-data; boundary=----fuzz', kind: 'not-json' },
      { value: 'application/json; charset=latin1', kind: 'not-json' },
      { value: 'application/json; charset=utf-16', kind: 'not-json' },
      { value: 'application/json; charset=iso-8859-1', kind: 'not-json' },
      { value: 'application/merge-patch+json', kind: 'not-json' },
      { value: 'application/problem+json', kind: 'not-json' },
      { value: 'application/jsonx', kind: 'not-json' },
      { value: 'application/json-seq', kind: 'not-json' },
      { value: 'application/*', kind: 'not-json' },
      { value: '*/*', kind: 'not-json' },
      { value: 'json', kind: 'not-json' },
      { value: 'application/octet-stream', kind: 'not-json' },
    ),
    4,
  ),
  weighted(
    fc.constantFrom<ContentTypeCase>(
      { value: 'application/json;', kind: 'odd' },
      { value: 'application/json; charset', kind: 'odd' },
      { value: 'application/json; charset=', kind: 'odd' },
      { value: 'application/json; charset=utf8', kind: 'odd' },
      { value: 'application/json; charset=utf-8; charset=utf-8', kind: 'odd' },
      { value: 'application/json; charset=utf-8; charset=latin1', kind: 'odd' },
      { value: 'application/json;;charset=utf-8', kind: 'odd' },
      { value: 'application/json, text/plain', kind: 'odd' },
      { value: 'application / json', kind: 'odd' },
      { value: '  application/json  ', kind: 'odd' },
      { value: 'application/json; charset="utf-8', kind: 'odd' },
      { value: 'application/json; q=0.5; charset=utf-8', kind: 'odd' },
    ),
    2,
  ),
  weighted(
    headerValueText(40).map((value) => ({ value, kind: 'odd' as const })),
    2,
  ),
);

// ---------------------------------------------------------------------------------------------
// API keys and the Authorization header

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The key checksum (docs/contract/decisions.md): 6 base62 characters of the CRC32 of the 32-character body. */
export function keyChecksum(body: string): string {
  let out = '';
  for (let rest = crc32(body); rest > 0; rest = Math.floor(rest / 62)) out = BASE62[rest % 62] + out;
  return out.padStart(6, '0');
}

const base62 = (length: number) => fc.string({ unit: fc.constantFrom(...BASE62), minLength: length, maxLength: length });

/** Replaces one character of `text` (from `from` on) by another base62 character. */
const flipOne = (text: string, from: number) =>
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 61 })).map(([at, shift]) => {
    const i = from + (at % (text.length - from));
    return text.slice(0, i) + BASE62[(BASE62.indexOf(text[i]) + shift) % 62] + text.slice(i + 1);
  });

/** Tokens that are never a valid key: well-formed but unknown, a flipped checksum or body, near misses. */
export const invalidToken = (validKeys: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    base62(32).map((body) => `pets_${body}${keyChecksum(body)}`),
    fc.constantFrom(...validKeys).chain((key) => flipOne(key, 5 + 32)),
    fc.constantFrom(...validKeys).chain((key) => flipOne(key, 5)),
    fc.constantFrom(...validKeys).map((key) => key.slice(0, -1)),
    fc.constantFrom(...validKeys).map((key) => `${key}0`),
    fc.constantFrom(...validKeys).map((key) => key.toUpperCase()),
    fc.constantFrom(...validKeys).map((key) => key.replace('pets_', 'PETS_')),
    base62(38).map((rest) => `pets_${rest}`),
    fc.stringMatching(/^[!-~]{1,80}$/),
    // Visible Latin-1 (what node:http can send in a header): no DEL, no C1 controls.
    fc.string({
      unit: fc.oneof(fc.integer({ min: 0x21, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((c) => String.fromCharCode(c)),
      minLength: 1,
      maxLength: 50,
    }),
  );

/** `Authorization` header values: every shape of Bearer, other schemes, garbage; undefined = no header. */
export const authorizationHeader = (goodKeys: string[], badKeys: string[]): fc.Arbitrary<string | undefined> => {
  const token = fc.oneof(
    weighted(fc.constantFrom(...goodKeys), 3),
    weighted(invalidToken([...goodKeys, ...badKeys]), 2),
    weighted(fc.constantFrom(...badKeys), 1),
  );
  return fc.oneof(
    weighted(fc.constant(undefined), 2),
    weighted(
      fc
        .tuple(
          randomCase('bearer'),
          fc.constantFrom(' ', '  ', '   ', '\t', ' \t', ''),
          token,
          fc.constantFrom('', ' ', '  ', '\t'),
          fc.constantFrom('', ' ', '\t'),
        )
        .map(([scheme, gap, value, trailing, leading]) => `${leading}${scheme}${gap}${value}${trailing}`),
      10,
    ),
    weighted(
      fc
        .tuple(
          fc.constantFrom('Bearer', 'bearer', 'Bearer ', 'Bearer  ', 'Basic', 'Token', 'Bearer:', 'Bearer='),
          fc.constantFrom(...goodKeys),
        )
        .map(([scheme, key]) => `${scheme}${scheme.endsWith(' ') ? '' : ' '}${key}`),
      2,
    ),
    weighted(
      fc.tuple(fc.constantFrom(...goodKeys), fc.constantFrom(...goodKeys, 'x')).map(([a, b]) => `Bearer ${a} ${b}`),
      1,
    ),
    weighted(fc.constantFrom('', ' ', 'Bearer', 'Bearer ', 'bearer\t', 'Basic dXNlcjpwYXNz', 'Bearer null', 'Bearer undefined'), 2),
    weighted(headerValueText(120), 2),
  );
};

/** X-Request-Id values: sane ones the service must echo, and insane ones it must replace. */
export const requestIdHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  weighted(fc.constant(undefined), 3),
  weighted(fc.stringMatching(/^[A-Za-z0-9._:/+=-]{1,128}$/), 2),
  weighted(fc.constantFrom('x'.repeat(128), 'x'.repeat(129), 'a b', 'semi;colon', 'ünï', '<script>', '../../etc/passwd'), 1),
  weighted(headerValueText(140), 2),
);

// ---------------------------------------------------------------------------------------------
// Paths and query strings

/** Characters that may stand raw in a request target; everything else is percent-encoded. */
const RAW_SAFE = /^[A-Za-z0-9\-._~!$'()*,;:@[\]]$/;

/** Percent-encodes every byte of the UTF-8 form of `text` outside RAW_SAFE (`+` too, `%` too). */
export function encodeRaw(text: string): string {
  return [...text]
    .map((c) => (RAW_SAFE.test(c) ? c : [...Buffer.from(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')))
    .join('');
}

/** Percent-encodes every byte, even letters and digits (`limit` -> `%6C%69%6D%69%74`). */
const encodeAll = (text: string) => [...Buffer.from(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** One piece of a URL as it goes on the wire: plain, fully encoded, double-encoded, or `+` for spaces. */
export const wireForm = (text: string): fc.Arbitrary<string> =>
  fc.oneof(
    weighted(fc.constant(encodeRaw(text)), 8),
    weighted(fc.constant(encodeAll(text)), 1),
    weighted(fc.constant(encodeRaw(encodeRaw(text))), 1),
    weighted(fc.constant(encodeRaw(text).replace(/%20/g, '+')), 1),
  );

/** Broken percent-encodings and other bytes that do not decode. */
export const brokenPercent = fc.constantFrom('%E0%A4%A', '%', '%%', '%zz', '%G1', '%C0%B1', '%ED%A0%80', '%FF', '%00', '%E2%82', '%u0031');

/** Path segments for GET /v1/pets/{petId}: ids that exist, that do not, and everything that is not an id. */
export const petIdSegment = (existingIds: number[]): fc.Arbitrary<string> =>
  fc.oneof(
    weighted(fc.constantFrom(...existingIds).map(String), 5),
    weighted(fc.integer({ min: 1, max: MAX_ID }).map(String), 3),
    weighted(
      fc
        .constantFrom(
          '0',
          '-1',
          '-0',
          '+1',
          '1.0',
          '1.5',
          '1e3',
          '0x10',
          '0b1',
          ' 1',
          '1 ',
          '1_000',
          String(MAX_ID),
          '9007199254740992',
          '9999999999999999',
          '99999999999999999999',
          '18446744073709551616',
          '١٢',
          '１',
          '𝟙',
          '²',
          'Infinity',
          'NaN',
          'null',
          'undefined',
          '1,2',
          '1;2',
          '1/2',
          '1?x',
          '1#x',
          '__proto__',
          'constructor',
          '🐈',
          'x'.repeat(300),
        )
        .chain((id) => wireForm(id)),
      4,
    ),
    weighted(
      fc.string({ minLength: 1, maxLength: 30 }).chain((s) => wireForm(s)),
      2,
    ),
    weighted(
      fc
        .tuple(fc.constantFrom(...existingIds).map(String), brokenPercent, fc.boolean())
        .map(([id, bad, before]) => (before ? bad + id : id + bad)),
      2,
    ),
    weighted(
      fc.constantFrom(...existingIds).map((id) => `0${id}`),
      1,
    ),
  );

export interface QueryPair {
  key: string;
  value: string | undefined;
}

/** Values of `limit`: in range, out of range, not integers, not numbers. */
const limitValue = fc.oneof(
  weighted(fc.integer({ min: 1, max: 100 }).map(String), 5),
  weighted(fc.integer({ min: -5, max: 300 }).map(String), 2),
  weighted(
    fc.constantFrom(
      '0',
      '101',
      '1.5',
      '1.0',
      '1e1',
      '0x10',
      ' 5',
      '5 ',
      '+5',
      '-0',
      '٣',
      '５',
      '',
      'NaN',
      'Infinity',
      '9007199254740993',
      '99999999999999999999',
      'true',
      '[]',
      '10,20',
      '07',
    ),
    3,
  ),
);

const statusValue = fc.oneof(
  weighted(fc.constantFrom(...PET_STATUSES), 5),
  weighted(fc.constantFrom('Available', 'SOLD', 'sold ', '', 'null', 'adopted', 'sold,pending'), 2),
);

/** Cursors: real ones (given), cut, edited, random base64url, random text. */
const cursorValue = (realCursors: string[]) =>
  fc.oneof(
    weighted(fc.constantFrom(...realCursors), 4),
    weighted(
      fc.tuple(fc.constantFrom(...realCursors), fc.nat()).map(([c, at]) => c.slice(0, at % c.length)),
      2,
    ),
    weighted(
      fc.constantFrom(...realCursors).chain((c) =>
        fc.tuple(fc.nat(), fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_')).map(([at, ch]) => {
          const i = at % c.length;
          return c.slice(0, i) + (c[i] === ch ? (ch === 'A' ? 'B' : 'A') : ch) + c.slice(i + 1);
        }),
      ),
      2,
    ),
    weighted(
      fc
        .tuple(fc.base64String({ maxLength: 60 }), fc.stringMatching(/^[A-Za-z0-9_-]{0,12}$/))
        .map(([b, tag]) => `${b.replace(/[+/=]/g, '_')}.${tag}`),
      2,
    ),
    weighted(
      fc.jsonValue({ maxDepth: 1 }).map((v) => `${Buffer.from(JSON.stringify(v)).toString('base64url')}.AAAAAAAAAA`),
      1,
    ),
    weighted(fc.string({ maxLength: 250 }), 1),
  );

const queryKey = fc.oneof(
  weighted(fc.constantFrom('limit', 'status', 'cursor'), 12),
  weighted(
    fc.constantFrom(
      'limt',
      'Limit',
      'LIMIT',
      'limit ',
      ' limit',
      'limit[]',
      'limit[0]',
      'status[]',
      'status[0]',
      'cursor[]',
      'a[b][c]',
      '__proto__',
      '__proto__[polluted]',
      'constructor',
      'constructor[prototype][polluted]',
      'prototype',
      'toString',
      'hasOwnProperty',
      'page',
      'offset',
      'id',
      '',
    ),
    3,
  ),
  weighted(fc.string({ maxLength: 12 }), 1),
);

/** The parameters of GET /v1/pets, unencoded (the oracle reads these back from the wire form). */
export const queryPairs = (realCursors: string[]): fc.Arbitrary<QueryPair[]> =>
  fc.array(
    queryKey.chain((key) => {
      const value =
        key === 'limit'
          ? limitValue
          : key === 'status'
            ? statusValue
            : key === 'cursor'
              ? cursorValue(realCursors)
              : fc.string({ maxLength: 12 });
      return fc.option(value, { freq: 12, nil: undefined }).map((v) => ({ key, value: v }));
    }),
    { maxLength: 4 },
  );

/** Pairs in some wire form, sometimes with a broken escape or a stray `&`. */
const onTheWire = (pairs: QueryPair[], mayBreak: boolean): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.tuple(...pairs.map(({ key, value }) => fc.tuple(wireForm(key), value === undefined ? fc.constant(undefined) : wireForm(value)))),
      mayBreak ? fc.option(brokenPercent, { freq: 10, nil: undefined }) : fc.constant(undefined),
      mayBreak ? fc.constantFrom('', '', '&', '&&') : fc.constant(''),
    )
    .map(([encoded, broken, extraAmp]) => {
      const parts = encoded.map(([k, v]) => (v === undefined ? k : `${k}=${v}`));
      if (broken !== undefined) parts.push(`limit=${broken}`);
      return parts.join('&') + extraAmp;
    });

/** Each of limit, status, cursor at most once with a plausible value (a cursor usually with its own filter). */
const plausiblePairs = (cursors: ReadonlyArray<readonly [string, string | null]>): fc.Arbitrary<QueryPair[]> =>
  fc
    .record({
      limit: fc.option(fc.oneof(weighted(fc.integer({ min: 1, max: 100 }).map(String), 6), weighted(limitValue, 1)), { nil: undefined }),
      position: fc.option(fc.constantFrom(...cursors), { nil: undefined }),
      status: fc.option(statusValue, { nil: undefined }),
      keepFilter: fc.boolean(),
    })
    .chain(({ limit, position, status, keepFilter }) => {
      const filter = position && keepFilter ? (position[1] ?? undefined) : status;
      const pairs: QueryPair[] = [
        ...(limit === undefined ? [] : [{ key: 'limit', value: limit }]),
        ...(filter === undefined ? [] : [{ key: 'status', value: filter }]),
        ...(position === undefined ? [] : [{ key: 'cursor', value: position[0] }]),
      ];
      return fc.shuffledSubarray(pairs, { minLength: pairs.length, maxLength: pairs.length });
    });

/** Query strings of GET /v1/pets: plausible ones (so pages are served) and anything at all. */
export const queryString = (cursors: ReadonlyArray<readonly [string, string | null]>): fc.Arbitrary<string> =>
  fc.oneof(
    weighted(
      plausiblePairs(cursors).chain((pairs) => onTheWire(pairs, false)),
      3,
    ),
    weighted(
      queryPairs(cursors.map(([cursor]) => cursor)).chain((pairs) => onTheWire(pairs, true)),
      2,
    ),
  );

// ---------------------------------------------------------------------------------------------
// Methods and paths for routing

/** Every method node:http sends, except CONNECT (a tunnel request, not one for a route). */
export const httpMethod = (methods: readonly string[]) =>
  fc.oneof(
    weighted(fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), 3),
    weighted(fc.constantFrom(...methods.filter((m) => m !== 'CONNECT')), 2),
  );

/** Paths under /v1: the two routes (and their spellings) and paths that are no route. */
export const v1Path: fc.Arbitrary<string> = fc.oneof(
  weighted(fc.constantFrom('/v1/pets', '/v1/pets/', '/v1/PETS', '/v1/pets/1', '/v1/pets/1/', '/v1/pets/abc', '/v1/pets?limit=1'), 4),
  weighted(
    fc
      .array(
        fc.oneof(
          fc.constantFrom('pets', 'v1', 'store', 'orders', 'users', '..', '.', '%2e%2e', 'docs', 'health', 'metrics', '', '1'),
          fc.string({ minLength: 1, maxLength: 10 }),
        ),
        { minLength: 1, maxLength: 4 },
      )
      .chain((segments) => fc.tuple(...segments.map(wireForm)).map((parts) => `/v1/${parts.join('/')}`)),
    4,
  ),
  weighted(
    fc.tuple(fc.constantFrom('/v1/', '/v1/pets/1/', '/v1/x/'), brokenPercent).map(([base, bad]) => base + bad),
    1,
  ),
);

// ---------------------------------------------------------------------------------------------
// Shared with the oracles

/** A name the service must accept (docs/contract/decisions.md, "Pets" and "Fine points"). */
export function isValidNameOracle(name: unknown): name is string {
  if (typeof name !== 'string') return false;
  const codePoints = [...name];
  return (
    codePoints.length >= 1 &&
    codePoints.length <= 100 &&
    codePoints.some((c) => !UNICODE_WHITE_SPACE.includes(c) && !PATTERN_ONLY_SPACE.includes(c)) &&
    !codePoints.some((c) => CONTROL_CHARACTERS.includes(c))
  );
}

/** A JSON value of any kind, as text: right types, wrong types, nesting, pollution attempts. */
export const anyValue = (right: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { arbitrary: right.map((v) => JSON.stringify(v)), weight: 8 },
    { arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)), weight: 2 },
    { arbitrary: deepJsonText, weight: 1 },
    { arbitrary: pollutionText, weight: 1 },
  );

/** An object text with each member present or not, plus an unknown member now and then. */
export const objectText = (members: Record<string, fc.Arbitrary<string>>) =>
  fc
    .tuple(
      ...Object.entries(members).map(([name, value]) =>
        fc.option(
          value.map((v) => `${JSON.stringify(name)}:${v}`),
          { nil: undefined },
        ),
      ),
      fc.array(fc.tuple(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 1 })), { maxLength: 1 }),
    )
    .map((parts) => {
      const members = parts.slice(0, -1) as Array<string | undefined>;
      const extras = (parts.at(-1) as Array<[string, unknown]>).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
      return `{${[...members.filter((p) => p !== undefined), ...extras].join(',')}}`;
    });
