import { Redis } from 'ioredis';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/index.js';
import { LimiterStore } from '../../src/policies/rate-limit/limiter.store.js';
import { RedisStore } from '../../src/policies/rate-limit/redis.store.js';
import { WebhookEndpointsService } from '../../src/modules/webhooks/webhook-endpoints.service.js';
import { eventually } from '../support/eventually.js';
import { FakeClock } from '../support/fake-clock.js';
import { redisReplicas } from '../support/redis-replicas.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * `quota.threshold_reached` (docs/contract/decisions.md, "Events and webhooks"): once per client, UTC day and
 * threshold (80 and 100 % of the day quota), whatever the number of replicas. Two replicas share the
 * suite's PostgreSQL database and the real Redis named by REDIS_URL; a receiver on loopback verifies
 * every delivery with the Standard Webhooks library.
 */
const DAY_MS = 86_400_000;
const PER_DAY = 20;
const ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_RETRY_SCHEDULE: '1s,1s',
  WEBHOOK_TIMEOUT_MS: '1000',
};

interface ThresholdData {
  plan: string;
  window: string;
  threshold: number;
  limit: number;
  used: number;
  reset: number;
}

const replicas = redisReplicas();
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});
afterAll(() => receiver.stop());
beforeEach(() => {
  receiver.received.length = 0;
});

/** An enterprise client with a day quota of 20, its key, and its endpoint subscribed to the thresholds; another client's endpoint too. */
async function quotaClient(app: TestApp) {
  const clients = app.app.get(ClientsService);
  const endpoints = app.app.get(WebhookEndpointsService);
  const client = await clients.create('Small quota', 'enterprise', { perMinute: 1_000, perDay: PER_DAY }, OPERATOR);
  const key = (await app.app.get(ApiKeysService).issue(client.id, { scopes: ['pets:read'] }, OPERATOR)).key;
  const fields = { url: receiver.url, eventTypes: ['quota.threshold_reached'] };
  const endpoint = await endpoints.create(client.id, fields, OPERATOR);
  const neighbour = await clients.create('Neighbour', 'enterprise', { perMinute: 1_000, perDay: PER_DAY }, OPERATOR);
  const neighbours = await endpoints.create(neighbour.id, { ...fields, url: `${receiver.url}?neighbour` }, OPERATOR);
  receiver.secrets.push(endpoint.secret, neighbours.secret);
  return { clientId: client.id, key, endpointId: endpoint.id, neighboursEndpointId: neighbours.id };
}

/** Sends requests round the replicas in turn, one after another, or all at once; the statuses. */
async function send(urls: string[], key: string, count: number, { together = false, from = 0 } = {}): Promise<number[]> {
  const one = async (i: number) => {
    const res = await fetch(`${urls[(from + i) % urls.length]}/v1/pets?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    return res.status;
  };
  if (together) return Promise.all(Array.from({ length: count }, (_, i) => one(i)));
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push(await one(i));
  return statuses;
}

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {});

/** The threshold events written for the client, by day then threshold, from the shared database. */
async function written(app: TestApp, clientId: number): Promise<Array<{ once_key: string; data: ThresholdData }>> {
  const rows = await app.dataSource.query<Array<{ once_key: string; body: string }>>(
    `SELECT once_key, body FROM webhook_events WHERE type = 'quota.threshold_reached' AND client_id = $1 `,
    [clientId],
  );
  return rows
    .map(({ once_key, body }) => ({ once_key, data: (JSON.parse(body) as { data: ThresholdData }).data }))
    .sort((x, y) => x.data.reset - y.data.reset || x.data.threshold - y.data.threshold);
}

/** The threshold is written off the request: give a write that should not happen the time to show. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

const listen = async (app: TestApp) => (await app.app.listen(0, '127.0.0.1'), await app.app.getUrl());

describe('quota.threshold_reached across two replicas on one Redis and one database (integration)', () => {
  it("fires once per threshold, at 80 % and 100 % of the day quota, on Redis's own clock", async () => {
    // Away from Redis's midnight, so the whole test is one UTC day.
    const [seconds] = await replicas.admin.time();
    const left = 86_400 - (Number(seconds) % 86_400);
    if (left < 60) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 200));
    const [a, b] = [await replicas.start(ENV), await replicas.start(ENV)];
    const urls = [await listen(a), await listen(b)];
    const { clientId, key, endpointId, neighboursEndpointId } = await quotaClient(a);

    expect(tally(await send(urls, key, 15))).toEqual({ 200: 15 });
    await settle();
    expect(await written(a, clientId)).toEqual([]); // 15 of 20: 75 %, not yet

    // The 16th (80 %) on one replica, then the 17th to 20th round both: each replica sees a day at or past 80 %.
    expect(tally(await send(urls, key, 15, { from: 15 }))).toEqual({ 200: 5, 429: 10 });
    expect(tally(await send(urls, key, 20, { together: true }))).toEqual({ 429: 20 });
    await settle();
    const [redisNow] = await replicas.admin.time();
    const reset = (Math.floor((Number(redisNow) * 1000) / DAY_MS) + 1) * (DAY_MS / 1000);
    const events = await written(b, clientId);
    expect(events).toEqual([
      {
        once_key: `quota:${clientId}:${reset * 1000}:80`,
        data: { plan: 'enterprise', window: 'day', threshold: 80, limit: PER_DAY, used: expect.any(Number), reset },
      },
      {
        once_key: `quota:${clientId}:${reset * 1000}:100`,
        data: { plan: 'enterprise', window: 'day', threshold: 100, limit: PER_DAY, used: 20, reset },
      },
    ]);
    // Written by the replica that wrote first: the 16th request's, or, when the 17th's replica wins the race, the 17th's.
    expect([16, 17]).toContain(events[0].data.used);

    // Delivered: once each (by webhook-id) to the client's endpoint, verified; nothing to the other client's.
    const delivered = await eventually(
      () => a.dataSource.query<Array<{ endpoint_id: string; state: string }>>('SELECT endpoint_id, state FROM webhook_deliveries'),
      (rows) => rows.length === 2 && rows.every(({ state }) => state === 'succeeded'),
      10_000,
    );
    expect(delivered.map(({ endpoint_id }) => Number(endpoint_id))).toEqual([endpointId, endpointId]);
    expect(delivered.some(({ endpoint_id }) => Number(endpoint_id) === neighboursEndpointId)).toBe(false);
    const received = receiver.events('quota.threshold_reached');
    const arrived = [...received.values()].map(({ event }) => event.data as unknown as ThresholdData);
    expect(arrived.sort((x, y) => x.threshold - y.threshold)).toEqual(events.map(({ data }) => data));
    expect(receiver.forged).toEqual([]);
  });

  it("fires again the next UTC day, and not before: the limiter's day moved by a clock given to the Redis script", async () => {
    // As the house's Redis limiter suites do (limiter.redis.int-spec, limiter-differential): the script runs on the
    // real Redis, with `now` passed as its argument from one fake clock both replicas share. Far ahead of Redis's own
    // clock, so no subject expires by Redis's time. Only the limiter's clock is fake: deliveries are signed at the real time.
    const clock = new FakeClock(new Date('2031-05-20T23:58:00Z'));
    const connections = [new Redis(replicas.env.REDIS_URL), new Redis(replicas.env.REDIS_URL)];
    const apps: TestApp[] = [];
    try {
      for (const redis of connections) {
        apps.push(
          await createTestApp({
            env: { ...replicas.env, ...ENV },
            overrides: [{ provide: LimiterStore, useValue: new RedisStore(redis, clock) }],
          }),
        );
      }
      const urls = [await listen(apps[0]), await listen(apps[1])];
      const { clientId, key } = await quotaClient(apps[0]);
      const reset = (instant: string) => Date.parse(instant) / 1000;
      const data = (threshold: number, used: number, next: string) => ({
        plan: 'enterprise',
        window: 'day',
        threshold,
        limit: PER_DAY,
        used,
        reset: reset(next),
      });

      // Day one: 30 requests at once, round both replicas. Whoever writes the 80 % first, it is written once.
      expect(tally(await send(urls, key, 30, { together: true }))).toEqual({ 200: 20, 429: 10 });
      await settle();
      const dayOne = await written(apps[0], clientId);
      expect(dayOne.map(({ data: { threshold } }) => threshold)).toEqual([80, 100]);
      expect(dayOne[0].data).toEqual({ ...data(80, dayOne[0].data.used, '2031-05-21T00:00:00Z') });
      expect(dayOne[0].data.used).toBeGreaterThanOrEqual(16);
      expect(dayOne[1].data).toEqual(data(100, 20, '2031-05-21T00:00:00Z'));

      // The last millisecond of the day: still refused, nothing more written.
      clock.set('2031-05-20T23:59:59.999Z');
      expect(tally(await send(urls, key, 4))).toEqual({ 429: 4 });
      await settle();
      expect(await written(apps[0], clientId)).toHaveLength(2);

      // Midnight UTC: a new day window. 15 admitted requests (75 %) write nothing; the 16th writes 80 %, the 20th 100 %.
      clock.set('2031-05-21T00:00:00.000Z');
      expect(tally(await send(urls, key, 15))).toEqual({ 200: 15 });
      await settle();
      expect(await written(apps[0], clientId)).toHaveLength(2);
      expect(tally(await send(urls, key, 10, { from: 15 }))).toEqual({ 200: 5, 429: 5 });
      await settle();
      const both = await written(apps[1], clientId);
      expect(both.slice(2).map(({ data: event }) => event)).toEqual([
        data(80, 16, '2031-05-22T00:00:00Z'),
        data(100, 20, '2031-05-22T00:00:00Z'),
      ]);
      expect(new Set(both.map(({ once_key }) => once_key)).size).toBe(4);

      const received = await eventually(
        () => Promise.resolve(receiver.events('quota.threshold_reached')),
        (events) => events.size >= 4,
        10_000,
      );
      const arrived = [...received.values()].map(({ event }) => event.data as unknown as ThresholdData);
      expect(arrived.sort((x, y) => x.reset - y.reset || x.threshold - y.threshold)).toEqual(both.map(({ data: event }) => event));
      await settle();
      expect(receiver.events('quota.threshold_reached').size).toBe(4);
      expect(receiver.forged).toEqual([]);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await Promise.all(connections.map((redis) => redis.quit()));
    }
  });
});
