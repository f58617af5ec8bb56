import { percentile } from '../fleet/http-client.js';
import { Summary } from '../fleet/metrics.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { queryDatabase } from '../support/test-databases.js';
import { committedPets, createPets, newClientKey, notArrived, subscribe, twoReplicas, until } from './webhook-fleet.js';

/**
 * Issue 36, point 4: a burst of 1,000 creations fanned out to 10 endpoints (10,000 deliveries) is
 * delivered within 60 s, to receivers that answer at once (one per endpoint, each verifying every
 * signature with the `standardwebhooks` package). Two replicas serve the burst and both deliver, as a
 * fleet runs by default. Run by `npm run test:fleet`, on a database of its own.
 */
const CREATIONS = 1_000;
const ENDPOINTS = 10;
const BOUND_MS = 60_000;
const summary = new Summary('Webhook delivery throughput');

describe('webhooks: 10,000 deliveries of one burst, two replicas delivering (real processes)', () => {
  const receivers = Array.from({ length: ENDPOINTS }, () => new WebhookReceiver());
  const fleet = twoReplicas({ WEBHOOK_TIMEOUT_MS: '5000' }, receivers, summary);

  it('delivers 1,000 creations to 10 endpoints within 60 s of the first creation', async () => {
    const { key } = await newClientKey(fleet.databaseUrl, 'throughput');
    for (const receiver of receivers) await subscribe(fleet.replicas[0], key, receiver);

    const burst = await createPets(fleet.replicas, () => [0, 1], { key, count: CREATIONS, workers: 16 });
    const ids = await committedPets(fleet.databaseUrl);
    const delivered = await until(() => receivers.every((receiver) => notArrived(receiver, ids).length === 0), BOUND_MS);
    const arrivals = receivers.flatMap((receiver) => receiver.received);
    const lastArrival = Math.max(...arrivals.map(({ arrivedAt }) => arrivedAt));
    const firstArrival = Math.min(...arrivals.map(({ arrivedAt }) => arrivedAt));
    const distinct = receivers.reduce((sum, receiver) => sum + receiver.events('pet.created').size, 0);
    // createdAt is read just before the creation's transaction commits: these latencies include the commit.
    const latencies = arrivals.map(({ event, arrivedAt }) => arrivedAt - Date.parse(event.createdAt));
    const [{ count: attempted }] = await queryDatabase<{ count: string }>(
      fleet.databaseUrl,
      'SELECT count(*) AS count FROM webhook_attempts',
    );
    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    summary.add(
      '1,000 creations x 10 endpoints, 2 replicas delivering',
      `creations: ${ids.length} committed in ${seconds(burst.endedAt - burst.startedAt)} s (16 at a time over 2 replicas)`,
      `deliveries: ${arrivals.length} arrivals, ${distinct} distinct (event, endpoint), ${arrivals.length - distinct} duplicates; attempts recorded ${attempted}`,
      `last arrival ${seconds(lastArrival - burst.startedAt)} s after the first creation was sent, ${seconds(lastArrival - burst.endedAt)} s after the last was answered`,
      `throughput: ${Math.round(distinct / ((lastArrival - firstArrival) / 1000))} deliveries/s from first to last arrival, ${Math.round(distinct / ((lastArrival - burst.startedAt) / 1000))}/s from the burst's start`,
      `commit to arrival (from the event's createdAt, read just before the commit): p50 ${percentile(latencies, 0.5)} ms, p99 ${percentile(latencies, 0.99)} ms, max ${percentile(latencies, 1)} ms`,
    );
    expect(receivers.flatMap((receiver) => receiver.forged)).toEqual([]);
    expect(ids).toHaveLength(CREATIONS);
    expect(delivered).toBe(true);
    expect(distinct).toBe(CREATIONS * ENDPOINTS);
    expect(lastArrival - burst.startedAt).toBeLessThan(BOUND_MS);
  }, 180_000);
});
