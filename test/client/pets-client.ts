// The typed-client check: a program written as a customer writes one, against the packed
// @pet-adoption/client installed in a scratch project. run-client.mjs type-checks it there
// (strict, the package's declarations included), compiles it and runs it against the live service.
// Any failed check throws: the process exits 1.
//
// Environment: PETS_BASE_URL (ends in /v1), PETS_API_KEY (pro plan, with keys:manage), PETS_TINY_KEY (2 requests a minute),
// PETS_USAGE_DELAY_MS (how long after a request its usage is written: the service's USAGE_FLUSH_INTERVAL_MS).
import {
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PetsClient,
  type ApiKey,
  type DeprecationNotice,
  type NewPet,
  type Pet,
} from '@pet-adoption/client';

const PAGE_SIZE = 3;
const started = Date.now();

function log(message: string): void {
  console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s] ${message}`);
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function env(name: string): string {
  const value = process.env[name];
  check(value, `${name} is not set`);
  return value;
}

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    (value) => {
      throw new Error(`expected an error, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

async function first<T>(items: AsyncIterable<T>): Promise<T | undefined> {
  for await (const item of items) return item;
  return undefined;
}

interface Exchange {
  url: URL;
  sentAt: number;
  receivedAt: number;
  status: number;
  retryAfter: number | undefined;
}

/** Every request the library sends, retries included; each is logged. */
const exchanges: Exchange[] = [];
const transcript: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input);
  const sentAt = Date.now();
  const response = await fetch(input, init);
  const retryAfter = response.headers.get('retry-after');
  exchanges.push({
    url,
    sentAt,
    receivedAt: Date.now(),
    status: response.status,
    retryAfter: retryAfter === null ? undefined : Number(retryAfter),
  });
  log(
    `${init?.method ?? 'GET'} ${url.pathname}${url.search} -> ${response.status}${retryAfter === null ? '' : `, Retry-After: ${retryAfter}`}`,
  );
  return response;
};

const deprecations: DeprecationNotice[] = [];
const baseUrl = env('PETS_BASE_URL');
const clientFor = (apiKey: string) =>
  new PetsClient({ apiKey, baseUrl, fetch: transcript, onDeprecation: (notice) => deprecations.push(notice) });
const api = clientFor(env('PETS_API_KEY'));

async function readQuota(): Promise<void> {
  const status = await api.rateLimit();
  check(status.plan === 'pro' && status.minute.limit === 300, `rateLimit(): ${JSON.stringify(status)}`);
  check(api.lastRateLimit && api.lastRateLimit.limit === 300, `lastRateLimit after rateLimit(): ${JSON.stringify(api.lastRateLimit)}`);
}

async function createPets(): Promise<Pet[]> {
  const run = Date.now().toString(36);
  const bodies: NewPet[] = [
    { name: `Rex ${run}`, categoryId: 1 },
    { name: `Bella ${run}`, categoryId: 2, status: 'pending' },
    { name: `Milo ${run}`, categoryId: 1, status: 'sold' },
    { name: `Luna ${run}`, categoryId: 3, status: 'available' },
    { name: `Coco ${run}`, categoryId: 2 },
    { name: `Nala ${run}`, categoryId: 4, status: 'pending' },
    { name: `Oscar ${run}`, categoryId: 1 },
  ];
  const created: Pet[] = [];
  for (const body of bodies) {
    const pet = await api.pets.create(body);
    const expected: Pet = { id: pet.id, name: body.name, categoryId: body.categoryId, status: body.status ?? 'available' };
    check(Number.isSafeInteger(pet.id) && pet.id > 0, `create: bad id ${pet.id}`);
    check(JSON.stringify(pet) === JSON.stringify(expected), `create: got ${JSON.stringify(pet)}, expected ${JSON.stringify(expected)}`);
    created.push(pet);
  }
  log(`created ${created.length} animals: ids ${created.map((pet) => pet.id).join(', ')}`);
  return created;
}

async function pageThroughAll(created: Pet[]): Promise<void> {
  const seen = new Map<number, number>();
  const before = exchanges.length;
  let lastId = 0;
  for await (const pet of api.pets.list({ limit: PAGE_SIZE })) {
    check(pet.id > lastId, `list: id ${pet.id} after ${lastId}: not ascending`);
    lastId = pet.id;
    seen.set(pet.id, (seen.get(pet.id) ?? 0) + 1);
  }
  const pages = exchanges.length - before;
  check(pages === Math.ceil(seen.size / PAGE_SIZE), `list: ${pages} pages for ${seen.size} animals`);
  for (const pet of created) {
    check(seen.get(pet.id) === 1, `animal ${pet.id} was listed ${seen.get(pet.id) ?? 0} times, not once`);
  }
  log(`for await listed ${seen.size} animals over ${pages} pages of up to ${PAGE_SIZE}: ascending ids, every created animal once`);
}

async function getOne(pet: Pet): Promise<void> {
  const got = await api.pets.get(pet.id);
  check(JSON.stringify(got) === JSON.stringify(pet), `get(${pet.id}): got ${JSON.stringify(got)}, expected ${JSON.stringify(pet)}`);
  const [notice] = deprecations;
  check(deprecations.length === 1 && notice.operation === 'getPet', `onDeprecation was told ${JSON.stringify(deprecations)}`);
  check(notice.sunsetAt && notice.sunsetAt.getTime() > Date.now(), `getPet: sunset ${notice.sunsetAt?.toISOString()} is not ahead`);
  check(notice.successor?.endsWith('/v1/pets'), `getPet: successor ${notice.successor}`);
  log(
    `onDeprecation: getPet deprecated since ${notice.deprecatedAt.toISOString()}, sunset ${notice.sunsetAt.toISOString()}, use ${notice.successor}`,
  );
}

async function notFound(created: Pet[]): Promise<void> {
  const unknownId = Math.max(...created.map((pet) => pet.id)) + 1_000_000;
  const error = await rejection(api.pets.get(unknownId));
  check(error instanceof NotFoundError && error.code === 'not_found' && error.status === 404, `get(${unknownId}): ${String(error)}`);
  check(error.requestId, 'NotFoundError without its requestId');
}

async function badLimit(): Promise<void> {
  const error = await rejection(first(api.pets.list({ limit: 0 })));
  check(error instanceof BadRequestError && error.code === 'validation_failed', `list({ limit: 0 }): ${String(error)}`);
  check(
    error.details?.some((detail) => detail.field === 'limit'),
    `list({ limit: 0 }): details do not name limit: ${JSON.stringify(error.details)}`,
  );
}

/** Creates a read-only key, rolls it with no overlap (the old one is refused "expired"), revokes its successor. */
async function manageKeys(): Promise<void> {
  const { key, ...shown } = await api.keys.create({ name: 'client run', scopes: ['pets:read'] });
  const listed = await api.keys.list();
  check(
    listed.some((k: ApiKey) => k.id === shown.id && !('key' in k)),
    'keys.list(): the new key is missing, or shows its secret',
  );

  const rolled = await api.keys.roll(shown.id, { overlapSeconds: 0 });
  check(rolled.name === 'client run' && rolled.scopes.join() === 'pets:read', 'roll: not the same name and scopes');
  const old = await rejection(first(clientFor(key).pets.list()));
  check(old instanceof AuthenticationError && old.message === 'expired', `the rolled key: ${String(old)}`);
  await first(clientFor(rolled.key).pets.list());

  await api.keys.revoke(rolled.id);
  const after = await api.keys.list();
  check(!after.some((k: ApiKey) => k.id === rolled.id), 'keys.list() still lists the revoked key');
}

/** Reads today's usage once the service has written it: this run's requests, per key; a reversed period is 400. */
async function readUsage(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 2 * Number(env('PETS_USAGE_DELAY_MS'))));
  const today = new Date().toISOString().slice(0, 10);
  const usage = await api.usage({ from: today });
  check(usage.from === today && usage.to === today, `usage() read ${usage.from} to ${usage.to}, expected ${today}`);
  check(
    usage.days.length > 0 && usage.days.every((row) => row.day === today),
    `usage(): no usage recorded today: ${JSON.stringify(usage)}`,
  );
  const sum = usage.days.reduce((total, row) => total + row.admitted, 0);
  check(usage.totals.admitted === sum && sum > 0, `usage(): totals ${JSON.stringify(usage.totals)} are not the rows' sum ${sum}`);

  const reversed = await rejection(api.usage({ from: '2027-03-02', to: '2027-03-01' }));
  check(reversed instanceof BadRequestError && reversed.code === 'validation_failed', `usage() with from after to: ${String(reversed)}`);
}

/** With the 2-a-minute key: calls until one is refused; the library waits Retry-After and the call succeeds. */
async function rateLimited(): Promise<void> {
  const tiny = clientFor(env('PETS_TINY_KEY'));
  const before = exchanges.length;
  const refusals = () => exchanges.slice(before).filter(({ status }) => status === 429);
  for (let calls = 1; refusals().length === 0; calls++) {
    check(calls <= 10, 'tiny key: 10 calls and no 429');
    await first(tiny.pets.list({ limit: 1 }));
  }
  const sent = exchanges.slice(before);
  for (const refused of refusals()) {
    check(refused.retryAfter !== undefined && refused.retryAfter >= 1, `429 with Retry-After ${refused.retryAfter}`);
    const next = sent.find(({ sentAt }) => sentAt > refused.receivedAt);
    const waitedMs = (next?.sentAt ?? 0) - refused.receivedAt;
    check(next?.status === 200, `the retry after the 429 answered ${next?.status}`);
    check(waitedMs >= refused.retryAfter * 1000, `retried ${waitedMs} ms after a 429 with Retry-After: ${refused.retryAfter}`);
    log(`429 with Retry-After: ${refused.retryAfter} s; the library retried ${(waitedMs / 1000).toFixed(2)} s later and was admitted`);
  }
  check(tiny.lastRateLimit?.limit === 2, `lastRateLimit of the tiny key: ${JSON.stringify(tiny.lastRateLimit)}`);
}

await readQuota();
const created = await createPets();
await pageThroughAll(created);
await getOne(created[0]);
await notFound(created);
await badLimit();
await manageKeys();
await readUsage();
await rateLimited();
log('client: all checks passed');
