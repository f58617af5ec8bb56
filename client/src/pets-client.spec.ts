import { jest } from '@jest/globals';
import { BASE_URL, clientOf, errorReply, FakeApi, settle } from '../test/fake-api.js';
import { ApiError, GoneError } from './errors.js';
import { PetsClient } from './pets-client.js';

const pet = { id: 7, name: 'Rex', categoryId: 3, status: 'available' };
const key = {
  id: 4,
  name: 'ci',
  prefix: 'pets_AbC',
  scopes: ['pets:read'],
  createdAt: '2027-03-01T12:00:00Z',
  expiresAt: null,
  lastUsedAt: null,
};
const deprecated = {
  Deprecation: '@1767225600',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  Link: '</v1/pets>; rel="successor-version"',
};

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('PetsClient options', () => {
  it('needs an API key and a base URL ending in /v1 (a trailing slash is fine)', () => {
    expect(() => new PetsClient({ apiKey: '', baseUrl: BASE_URL })).toThrow('apiKey is required');
    expect(() => new PetsClient({ apiKey: 'k', baseUrl: 'https://api.pets.example' })).toThrow(
      'baseUrl must be an absolute URL ending in /v1',
    );
    expect(() => new PetsClient({ apiKey: 'k', baseUrl: '/v1' })).toThrow('baseUrl must be an absolute URL ending in /v1, not /v1');
    expect(() => new PetsClient({ apiKey: 'k', baseUrl: `${BASE_URL}/` })).not.toThrow();
  });

  it('takes whole numbers for its limits', () => {
    expect(() => new PetsClient({ apiKey: 'k', baseUrl: BASE_URL, maxRetries: -1 })).toThrow('maxRetries must be an integer of at least 0');
    expect(() => new PetsClient({ apiKey: 'k', baseUrl: BASE_URL, timeoutMs: 0 })).toThrow(RangeError);
    expect(() => new PetsClient({ apiKey: 'k', baseUrl: BASE_URL, maxRetryDelayMs: 1.5 })).toThrow(RangeError);
  });

  it("uses the platform's fetch by default, called as a plain function", async () => {
    const platform = jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify([]), { status: 200 }));
    await settle(new PetsClient({ apiKey: 'k', baseUrl: BASE_URL }).keys.list());
    expect(platform).toHaveBeenCalledTimes(1);
  });
});

describe('the operations: method, URL, headers and body as the contract says', () => {
  it('pets.create and pets.get', async () => {
    const api = new FakeApi().reply({ status: 201, body: pet }, { status: 200, body: pet });
    const client = clientOf(api);
    expect((await settle(client.pets.create({ name: 'Rex', categoryId: 3 }))).value).toEqual(pet);
    expect((await settle(client.pets.get(7))).value).toEqual(pet);
    expect(api.sent.map(({ method, url, body }) => [method, url.href, body])).toEqual([
      ['POST', `${BASE_URL}/pets`, { name: 'Rex', categoryId: 3 }],
      ['GET', `${BASE_URL}/pets/7`, undefined],
    ]);
    expect(api.sent[0].headers.get('authorization')).toBe('Bearer pets_test');
    expect(api.sent[0].headers.get('content-type')).toBe('application/json');
    expect(api.sent[1].headers.get('content-type')).toBeNull();
    expect(api.sent[1].headers.get('accept')).toBe('application/json');
  });

  it('keys: list, create, roll and revoke (204: nothing)', async () => {
    const shown = { ...key, key: 'pets_secret' };
    const api = new FakeApi().reply(
      { status: 200, body: [key] },
      { status: 201, body: shown },
      { status: 201, body: shown },
      { status: 204 },
    );
    const client = clientOf(api);
    expect((await settle(client.keys.list())).value).toEqual([key]);
    expect((await settle(client.keys.create({ name: 'ci', scopes: ['pets:read'] }))).value).toEqual(shown);
    expect((await settle(client.keys.roll(4))).value).toEqual(shown);
    expect(await settle(client.keys.revoke(4))).toEqual({ value: undefined });
    expect(api.sent.map(({ method, url, body }) => [method, url.pathname, body])).toEqual([
      ['GET', '/v1/keys', undefined],
      ['POST', '/v1/keys', { name: 'ci', scopes: ['pets:read'] }],
      ['POST', '/v1/keys/4/roll', {}],
      ['DELETE', '/v1/keys/4', undefined],
    ]);
  });

  it('webhook endpoints: every operation, and the deliveries page after page', async () => {
    const endpoint = {
      id: 3,
      url: 'https://hooks.example.com/pets',
      eventTypes: ['pet.created'],
      description: '',
      enabled: true,
      createdAt: '2027-03-01T12:00:00Z',
      disabledReason: null,
    };
    const shown = { ...endpoint, secret: 'whsec_x' };
    const attempt = (id: number) => ({
      id,
      eventId: 'evt_a',
      eventType: 'pet.created',
      attempt: id,
      attemptedAt: '2027-03-01T12:00:00Z',
      status: 204,
      error: null,
      durationMs: 3,
    });
    const api = new FakeApi().reply(
      { status: 200, body: [endpoint] },
      { status: 201, body: shown },
      { status: 200, body: endpoint },
      { status: 200, body: { ...endpoint, enabled: false } },
      { status: 201, body: shown },
      { status: 202, body: { eventId: 'evt_a' } },
      { status: 200, body: [attempt(2)], headers: { Link: `<${BASE_URL}/webhook-endpoints/3/deliveries?limit=1&cursor=c2>; rel="next"` } },
      { status: 200, body: [attempt(1)] },
      { status: 202, body: { eventId: 'evt_a' } },
      { status: 204 },
      { status: 201, body: shown },
      { status: 200, body: [] },
    );
    const hooks = clientOf(api).webhookEndpoints;
    expect((await settle(hooks.list())).value).toEqual([endpoint]);
    expect((await settle(hooks.create({ url: endpoint.url, eventTypes: ['pet.created'] }))).value).toEqual(shown);
    expect((await settle(hooks.get(3))).value).toEqual(endpoint);
    expect((await settle(hooks.update(3, { enabled: false }))).value).toMatchObject({ enabled: false });
    expect((await settle(hooks.rotateSecret(3, { overlapSeconds: 60 }))).value).toEqual(shown);
    expect((await settle(hooks.test(3))).value).toEqual({ eventId: 'evt_a' });
    const seen: number[] = [];
    const walk = (async () => {
      for await (const { id } of hooks.deliveries(3, { limit: 1 })) seen.push(id);
    })();
    await settle(walk);
    expect(seen).toEqual([2, 1]);
    expect((await settle(hooks.redeliver(3, 'evt_a'))).value).toEqual({ eventId: 'evt_a' });
    expect(await settle(hooks.delete(3))).toEqual({ value: undefined });
    await settle(hooks.rotateSecret(3));
    const none = hooks.deliveries(3)[Symbol.asyncIterator]();
    expect((await settle(none.next())).value).toEqual({ done: true, value: undefined });
    expect(api.sent.map(({ method, url, body }) => [method, `${url.pathname}${url.search}`, body])).toEqual([
      ['GET', '/v1/webhook-endpoints', undefined],
      ['POST', '/v1/webhook-endpoints', { url: endpoint.url, eventTypes: ['pet.created'] }],
      ['GET', '/v1/webhook-endpoints/3', undefined],
      ['PATCH', '/v1/webhook-endpoints/3', { enabled: false }],
      ['POST', '/v1/webhook-endpoints/3/rotate-secret', { overlapSeconds: 60 }],
      ['POST', '/v1/webhook-endpoints/3/test', undefined],
      ['GET', '/v1/webhook-endpoints/3/deliveries?limit=1', undefined],
      ['GET', '/v1/webhook-endpoints/3/deliveries?limit=1&cursor=c2', undefined],
      ['POST', '/v1/webhook-endpoints/3/deliveries/evt_a/redeliver', undefined],
      ['DELETE', '/v1/webhook-endpoints/3', undefined],
      ['POST', '/v1/webhook-endpoints/3/rotate-secret', {}],
      ['GET', '/v1/webhook-endpoints/3/deliveries', undefined],
    ]);
    expect(api.sent[1].headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(api.sent[3].headers.get('idempotency-key')).toBeNull();
  });

  it('rateLimit() and usage(), with only the query parameters given', async () => {
    const window = { limit: 60, remaining: 59, reset: 1_803_902_460 };
    const usage = { from: '2027-03-01', to: '2027-03-01', days: [], totals: { admitted: 0, refused: 0 } };
    const api = new FakeApi().reply(
      { status: 200, body: { plan: 'free', minute: window, day: window } },
      { status: 200, body: usage },
      {
        status: 200,
        body: usage,
      },
    );
    const client = clientOf(api);
    expect((await settle(client.rateLimit())).value).toMatchObject({ plan: 'free' });
    await settle(client.usage({ from: '2027-03-01', to: '2027-03-31' }));
    expect((await settle(client.usage())).value).toEqual(usage);
    expect(api.sent.map(({ url }) => `${url.pathname}${url.search}`)).toEqual([
      '/v1/rate_limit',
      '/v1/usage?from=2027-03-01&to=2027-03-31',
      '/v1/usage',
    ]);
  });

  it('a success that is not JSON is an ApiError, unexpected_response', async () => {
    const api = new FakeApi().reply({ status: 200, body: '<html>captive portal</html>' });
    const { error } = await settle(clientOf(api).rateLimit());
    expect(error).toMatchObject({ constructor: ApiError, status: 200, code: 'unexpected_response' });
  });
});

describe('deprecation', () => {
  it('reports a deprecated operation to onDeprecation, once per operation', async () => {
    const onDeprecation = jest.fn();
    const api = new FakeApi().reply({ status: 200, body: pet, headers: deprecated }, { status: 200, body: pet, headers: deprecated });
    const client = clientOf(api, { onDeprecation });
    for (let call = 0; call < 2; call++) await settle(client.pets.get(7));
    expect(onDeprecation.mock.calls).toEqual([
      [
        {
          operation: 'getPet',
          deprecatedAt: new Date('2026-01-01T00:00:00Z'),
          sunsetAt: new Date('2030-12-05T00:00:00Z'),
          successor: `${BASE_URL}/pets`,
        },
      ],
    ]);
  });

  it('warns on the console by default', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = new FakeApi().reply({ status: 200, body: pet, headers: deprecated });
    await settle(new PetsClient({ apiKey: 'k', baseUrl: BASE_URL, fetch: api.fetch }).pets.get(7));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('getPet is deprecated since 2026-01-01T00:00:00.000Z'));
  });

  it('past the sunset, the operation is a GoneError', async () => {
    const api = new FakeApi().reply(errorReply(410, 'endpoint_removed', deprecated));
    const { error } = await settle(clientOf(api).pets.get(7));
    expect(error).toMatchObject({ constructor: GoneError, code: 'endpoint_removed' });
  });
});
