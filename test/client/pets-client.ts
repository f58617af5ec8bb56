// A client generated from the published contract (openapi.json -> generated/schema.d.ts), used the
// way a customer would use it. run-client.mjs type-checks it against the generated types, compiles it
// and runs it against the live service. Any failed check throws: the process exits 1.
//
// Environment: PETS_BASE_URL (ends in /v1), PETS_API_KEY (pro plan, with keys:manage), PETS_TINY_KEY (2 requests a minute),
// PETS_USAGE_DELAY_MS (how long after a request its usage is written: the service's USAGE_FLUSH_INTERVAL_MS).
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './generated/schema.js';

type Pet = components['schemas']['Pet'];
type NewPet = components['schemas']['NewPet'];
type ApiError = components['schemas']['Error'];
type ApiKey = components['schemas']['ApiKey'];
type KeyUsage = components['schemas']['KeyUsage'];

const PAGE_SIZE = 3;
const MAX_TOTAL_WAIT_S = 180;
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

const baseUrl = env('PETS_BASE_URL');
const basePath = new URL(baseUrl).pathname;

/** Logs every exchange: method, path and query, status (and the error code of an error). */
const transcript: Middleware = {
  async onResponse({ request, response }) {
    const url = new URL(request.url);
    let suffix = '';
    if (!response.ok) {
      const body = (await response
        .clone()
        .json()
        .catch(() => ({}))) as Partial<ApiError>;
      suffix = ` ${body.code ?? '(no error code)'}`;
    }
    log(`${request.method} ${url.pathname}${url.search} -> ${response.status}${suffix}`);
  },
};

function clientFor(key: string) {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });
  client.use(transcript);
  return client;
}

const api = clientFor(env('PETS_API_KEY'));

/** The `next` target of a `Link: <url>; rel="next"` header, or undefined on the last page. */
function nextLink(header: string | null): URL | undefined {
  const match = /<([^>]+)>\s*;\s*rel="next"/.exec(header ?? '');
  return match ? new URL(match[1], baseUrl) : undefined;
}

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

async function listFirstPage(): Promise<void> {
  const { data, response } = await api.GET('/pets');
  check(response.status === 200 && data, `GET /pets answered ${response.status}`);
  check(Array.isArray(data) && data.length <= 20, 'GET /pets: the body is not an array of at most 20 animals');
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
    const { data, error, response } = await api.POST('/pets', { body });
    check(response.status === 201 && data, `POST /pets answered ${response.status} ${error?.code ?? ''}`);
    const expected: Pet = { id: data.id, name: body.name, categoryId: body.categoryId, status: body.status ?? 'available' };
    check(Number.isSafeInteger(data.id) && data.id > 0, `POST /pets: bad id ${data.id}`);
    check(
      JSON.stringify(data) === JSON.stringify(expected),
      `POST /pets: got ${JSON.stringify(data)}, expected ${JSON.stringify(expected)}`,
    );
    const location = response.headers.get('location');
    check(
      location && new URL(location, baseUrl).pathname === `${basePath}/pets/${data.id}`,
      `POST /pets: Location ${location} does not lead to animal ${data.id}`,
    );
    created.push(data);
  }
  log(`created ${created.length} animals: ids ${created.map((pet) => pet.id).join(', ')}`);
  return created;
}

async function pageThroughAll(created: Pet[]): Promise<void> {
  const seen = new Map<number, number>();
  let cursor: string | undefined;
  let lastId = 0;
  let pages = 0;
  for (;;) {
    check(++pages <= 1000, 'paging does not end');
    const { data, response } = await api.GET('/pets', { params: { query: { limit: PAGE_SIZE, cursor } } });
    check(response.status === 200 && data, `GET /pets (page ${pages}) answered ${response.status}`);
    check(data.length <= PAGE_SIZE, `page ${pages} has ${data.length} animals, more than limit=${PAGE_SIZE}`);
    for (const pet of data) {
      check(pet.id > lastId, `page ${pages}: id ${pet.id} after ${lastId}: not ascending`);
      lastId = pet.id;
      seen.set(pet.id, (seen.get(pet.id) ?? 0) + 1);
    }
    const next = nextLink(response.headers.get('link'));
    if (!next) break;
    check(next.pathname === `${basePath}/pets`, `next link ${next.href} does not lead to ${basePath}/pets`);
    check(next.searchParams.get('limit') === String(PAGE_SIZE), `next link ${next.href} lost limit=${PAGE_SIZE}`);
    const nextCursor = next.searchParams.get('cursor');
    check(nextCursor, `next link ${next.href} has no cursor`);
    cursor = nextCursor;
  }
  for (const pet of created) {
    check(seen.get(pet.id) === 1, `animal ${pet.id} was seen ${seen.get(pet.id) ?? 0} times while paging, not once`);
  }
  log(`paged through ${seen.size} animals in ${pages} pages of up to ${PAGE_SIZE}: ascending ids, every created animal once`);
}

async function getOne(pet: Pet): Promise<void> {
  const { data, response } = await api.GET('/pets/{petId}', { params: { path: { petId: pet.id } } });
  check(response.status === 200 && data, `GET /pets/${pet.id} answered ${response.status}`);
  check(JSON.stringify(data) === JSON.stringify(pet), `GET /pets/${pet.id}: got ${JSON.stringify(data)}, expected ${JSON.stringify(pet)}`);
  const deprecation = response.headers.get('deprecation') ?? '';
  const sunset = response.headers.get('sunset') ?? '';
  check(/^@\d+$/.test(deprecation), `getPet: Deprecation header "${deprecation}" is not @<unix seconds>`);
  check(/ GMT$/.test(sunset) && Date.parse(sunset) > Date.now(), `getPet: Sunset header "${sunset}" is not a future HTTP date`);
  check(/rel="successor-version"/.test(response.headers.get('link') ?? ''), 'getPet: no successor-version Link');
  log(
    `getPet is deprecated: Deprecation ${deprecation} (${new Date(Number(deprecation.slice(1)) * 1000).toISOString()}), Sunset ${sunset}`,
  );
}

async function notFound(created: Pet[]): Promise<void> {
  const unknownId = Math.max(...created.map((pet) => pet.id)) + 1_000_000;
  const { data, error, response } = await api.GET('/pets/{petId}', { params: { path: { petId: unknownId } } });
  check(response.status === 404 && !data && error, `GET /pets/${unknownId} answered ${response.status}, expected 404`);
  const body: ApiError = error; // typed by the contract: the 404 body is the Error object
  check(body.code === 'not_found' && body.status === 404, `GET /pets/${unknownId}: error ${JSON.stringify(body)}`);
}

async function badLimit(): Promise<void> {
  const { error, response } = await api.GET('/pets', { params: { query: { limit: 0 } } });
  check(response.status === 400 && error, `GET /pets?limit=0 answered ${response.status}, expected 400`);
  const body: ApiError = error;
  check(body.code === 'validation_failed', `GET /pets?limit=0: code ${body.code}, expected validation_failed`);
  check(
    body.details?.some((detail) => detail.field === 'limit'),
    `GET /pets?limit=0: details do not name limit: ${JSON.stringify(body)}`,
  );
}

/** Creates a read-only key, rolls it with no overlap (the old one is refused "expired"), revokes its successor. */
async function manageKeys(): Promise<void> {
  const created = await api.POST('/keys', { body: { name: 'client run', scopes: ['pets:read'] } });
  check(created.response.status === 201 && created.data, `POST /keys answered ${created.response.status}`);
  const { key, ...shown } = created.data;
  check(created.response.headers.get('location')?.endsWith(`/keys/${shown.id}`), 'POST /keys: Location is not the new key');
  const listed = await api.GET('/keys');
  check(
    listed.data?.some((k: ApiKey) => k.id === shown.id && !('key' in k)),
    'GET /keys: the new key is missing, or shows its secret',
  );

  const rolled = await api.POST('/keys/{keyId}/roll', { params: { path: { keyId: shown.id } }, body: { overlapSeconds: 0 } });
  check(rolled.response.status === 201 && rolled.data, `POST /keys/${shown.id}/roll answered ${rolled.response.status}`);
  check(rolled.data.name === 'client run' && rolled.data.scopes.join() === 'pets:read', 'roll: not the same name and scopes');
  const old = await clientFor(key).GET('/pets');
  check(old.response.status === 401 && old.error?.message === 'expired', `the rolled key answered ${old.response.status}`);
  check((await clientFor(rolled.data.key).GET('/pets')).response.status === 200, 'the new key is refused');

  const revoked = await api.DELETE('/keys/{keyId}', { params: { path: { keyId: rolled.data.id } } });
  check(revoked.response.status === 204, `DELETE /keys/${rolled.data.id} answered ${revoked.response.status}`);
  const after = await api.GET('/keys');
  check(!after.data?.some((k: ApiKey) => k.id === rolled.data.id), 'GET /keys still lists the revoked key');
}

/** Reads today's usage once the service has written it: this run's requests, per key; a reversed period is 400. */
async function readUsage(): Promise<void> {
  await sleep((2 * Number(env('PETS_USAGE_DELAY_MS'))) / 1000);
  const today = new Date().toISOString().slice(0, 10);
  const { data, response } = await api.GET('/usage', { params: { query: { from: today } } });
  check(response.status === 200 && data, `GET /usage answered ${response.status}`);
  check(data.from === today && data.to === today, `GET /usage read ${data.from} to ${data.to}, expected ${today}`);
  check(
    data.days.length > 0 && data.days.every((row: KeyUsage) => row.day === today),
    `GET /usage: no usage recorded today: ${JSON.stringify(data)}`,
  );
  const sum = data.days.reduce((total: number, row: KeyUsage) => total + row.admitted, 0);
  check(data.totals.admitted === sum && sum > 0, `GET /usage: totals ${JSON.stringify(data.totals)} are not the rows' sum ${sum}`);

  const { error, response: refused } = await api.GET('/usage', { params: { query: { from: '2027-03-02', to: '2027-03-01' } } });
  check(refused.status === 400 && error, `GET /usage with from after to answered ${refused.status}, expected 400`);
  const body: ApiError = error;
  check(body.code === 'validation_failed', `GET /usage with from after to: code ${body.code}, expected validation_failed`);
}

/** With the 2-a-minute key: calls until refused, then waits Retry-After and backs off until admitted. */
async function rateLimited(): Promise<void> {
  const tiny = clientFor(env('PETS_TINY_KEY'));
  const list = () => tiny.GET('/pets', { params: { query: { limit: 1 } } });

  let result = await list();
  for (let calls = 1; result.response.status !== 429; calls++) {
    check(result.response.status === 200, `tiny key: GET /pets answered ${result.response.status}`);
    check(calls < 10, 'tiny key: 10 calls and still no 429');
    result = await list();
  }

  let totalWait = 0;
  for (let refusal = 0; result.response.status === 429; refusal++) {
    const { error, response } = result;
    check(error?.code === 'rate_limit_exceeded', `429 with code ${error?.code}, expected rate_limit_exceeded`);
    check(response.headers.get('x-ratelimit-remaining') === '0', '429 without X-RateLimit-Remaining: 0');
    const retryAfterHeader = response.headers.get('retry-after') ?? '';
    check(/^\d+$/.test(retryAfterHeader) && Number(retryAfterHeader) >= 1, `429 with Retry-After "${retryAfterHeader}"`);
    const retryAfter = Number(retryAfterHeader);
    // First refusal: wait exactly Retry-After. Refused again: back off exponentially (2, 4, 8 s ...,
    // never less than Retry-After), with up to 1 s of jitter.
    const wait = refusal === 0 ? retryAfter : Math.max(retryAfter, 2 ** refusal) + Math.random();
    check(totalWait + wait <= MAX_TOTAL_WAIT_S, `still refused after waiting ${totalWait.toFixed(1)} s; giving up`);
    log(`429 ${error.code}, Retry-After: ${retryAfter} s -> waiting ${wait.toFixed(1)} s (${refusal === 0 ? 'Retry-After' : 'backoff'})`);
    await sleep(wait);
    totalWait += wait;
    result = await list();
  }
  check(result.response.status === 200 && result.data, `tiny key: after waiting, GET /pets answered ${result.response.status}`);
  log(`admitted again after waiting ${totalWait.toFixed(1)} s in total`);
}

await listFirstPage();
const created = await createPets();
await pageThroughAll(created);
await getOne(created[0]);
await notFound(created);
await badLimit();
await manageKeys();
await readUsage();
await rateLimited();
log('client: all checks passed');
