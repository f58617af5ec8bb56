import { Summary } from '../fleet/metrics.js';
import { sleep } from '../fleet/load.js';
import { WebhookReceiver, type Received } from '../support/webhook-receiver.js';
import { queryDatabase } from '../support/test-databases.js';
import { committedPets, createPets, newClientKey, notArrived, subscribe, twoReplicas, until } from './webhook-fleet.js';

/**
 * Issue 36, point 2: at least once, on real servers. Two replicas of the built service on PostgreSQL
 * (a database of this suite's own), each delivering, and receivers on loopback that verify every
 * signature with the `standardwebhooks` package (test/support/webhook-receiver.ts). Run by
 * `npm run test:fleet`. The retry schedules are shortened through WEBHOOK_RETRY_SCHEDULE; the
 * decided defaults are in webhooks.config.ts.
 */
const summary = new Summary('Webhooks: at least once');
const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** Arrivals per event id, in the order they came. */
function byEvent(received: Received[]): Map<string, Received[]> {
  const events = new Map<string, Received[]>();
  for (const arrival of received) events.set(arrival.id, [...(events.get(arrival.id) ?? []), arrival]);
  return events;
}

describe('webhooks: a replica killed (SIGKILL) and restarted during a burst of 1,000 creations', () => {
  const TIMEOUT_MS = 2_000;
  /** The claim's lease: a killed replica's attempts under way are attempted again after it (delivery-worker.ts). */
  const LEASE_MS = TIMEOUT_MS + 30_000;
  const receivers = [new WebhookReceiver(), new WebhookReceiver()];
  const hooks = twoReplicas(
    { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_RETRY_SCHEDULE: '1s,2s,5s,10s,30s,60s,60s' },
    receivers,
    summary,
  );

  it("delivers every committed creation's pet.created to each endpoint, 0 lost, duplicates only as retries of one webhook-id", async () => {
    // Two clients, each with an endpoint subscribed to pet.created, each endpoint a receiver of its own.
    const owners = [await newClientKey(hooks.databaseUrl, 'hooks one'), await newClientKey(hooks.databaseUrl, 'hooks two')];
    const endpoints = [
      await subscribe(hooks.replicas[0], owners[0].key, receivers[0]),
      await subscribe(hooks.replicas[1], owners[1].key, receivers[1]),
    ];

    // Creations paced over about 9 s, and receivers that take 800 ms to answer (the timeout is 2 s): attempts are
    // under way when the replica dies, some arrived and unanswered.
    for (const receiver of receivers) receiver.answer = () => sleep(800).then(() => 204);
    let down = false;
    const restart = { killedAt: 0, readyAt: 0, running: Promise.resolve() };
    const burst = await createPets(hooks.replicas, () => (down ? [0] : [0, 1]), {
      key: owners[0].key,
      count: 1_000,
      workers: 12,
      paceMs: 100,
      onCreated: (created) => {
        if (created !== 400) return;
        // Mid-burst: replica 2 dies with its requests, transactions and attempts under way, and comes back.
        down = true;
        restart.running = (async () => {
          await hooks.replicas[1].kill();
          restart.killedAt = Date.now();
          await sleep(1_000);
          await hooks.replicas[1].start();
          restart.readyAt = Date.now();
          down = false;
        })();
      },
    });
    await restart.running;
    const committed = await committedPets(hooks.databaseUrl);
    // Every event arrived, and every delivery succeeded: those the kill left unanswered are attempted again after their lease.
    const unsettled = async () =>
      (await queryDatabase<{ n: string }>(hooks.databaseUrl, "SELECT count(*) AS n FROM webhook_deliveries WHERE state <> 'succeeded'"))[0]
        .n;
    const delivered = await until(
      async () => receivers.every((receiver) => notArrived(receiver, committed).length === 0) && (await unsettled()) === '0',
      LEASE_MS + 60_000,
      200,
    );
    await sleep(1_000); // anything still under way arrives and is counted

    const unanswered = burst.answers.filter((answer) => answer.status === 0).length;
    const lost = receivers.map((receiver) => notArrived(receiver, committed));
    const lines: string[] = [];
    const problems: string[] = [];
    for (const [index, receiver] of receivers.entries()) {
      const events = byEvent(receiver.received);
      const duplicates = receiver.received.length - events.size;
      // One event per animal: a duplicate is the same event (webhook-id) again, never a second event.
      const eventsPerPet = new Map<number, Set<string>>();
      for (const { id, event } of receiver.received) {
        eventsPerPet.set(Number(event.data.id), (eventsPerPet.get(Number(event.data.id)) ?? new Set()).add(id));
      }
      const petsWithTwoEvents = [...eventsPerPet.values()].filter((ids) => ids.size > 1).length;
      const differingBodies = [...events.values()].filter((arrivals) => new Set(arrivals.map((a) => JSON.stringify(a.event))).size > 1);
      // Each arrival is an attempt the service claimed (the claim counts them): no attempt sent twice.
      const claimed = await queryDatabase<{ event_id: string; attempts: number; state: string }>(
        hooks.databaseUrl,
        'SELECT event_id, attempts, state FROM webhook_deliveries WHERE endpoint_id = $1',
        [endpoints[index]],
      );
      const attemptsOf = new Map(claimed.map((row) => [row.event_id, Number(row.attempts)]));
      const beyondAttempts = [...events].filter(([id, arrivals]) => arrivals.length > (attemptsOf.get(id) ?? 0)).length;
      const retried = claimed.filter((row) => Number(row.attempts) > 1).length;
      const notSucceeded = claimed.filter((row) => row.state !== 'succeeded').length;
      const last = Math.max(...receiver.received.map(({ arrivedAt }) => arrivedAt));
      lines.push(
        `endpoint ${index + 1} (client ${owners[index].clientId}): ${events.size} events for ${committed.length} committed animals, lost ${lost[index].length}; ` +
          `${receiver.received.length} arrivals, duplicates ${duplicates} (deliveries attempted more than once: ${retried}); ` +
          `last arrival ${seconds(last - burst.endedAt)} s after the burst's last answer`,
      );
      if (receiver.forged.length > 0) problems.push(`endpoint ${index + 1}: ${receiver.forged.length} arrivals failed verification`);
      if (petsWithTwoEvents > 0) problems.push(`endpoint ${index + 1}: ${petsWithTwoEvents} animals with two different webhook-ids`);
      if (differingBodies.length > 0) problems.push(`endpoint ${index + 1}: ${differingBodies.length} webhook-ids with differing bodies`);
      if (beyondAttempts > 0) problems.push(`endpoint ${index + 1}: ${beyondAttempts} events arrived more often than attempted`);
      if (notSucceeded > 0) problems.push(`endpoint ${index + 1}: ${notSucceeded} deliveries not marked succeeded`);
    }
    summary.add(
      'Replica killed (SIGKILL) and restarted during 1,000 creations, 2 endpoints of 2 clients',
      `creations: ${burst.created.length} answered 201 in ${seconds(burst.endedAt - burst.startedAt)} s (12 at a time, each pausing 100 ms after its answer), ${unanswered} unanswered (their replica died); ${committed.length} rows in pets (committed)`,
      `replica 2 SIGKILLed after the 400th 201, serving again ${seconds(restart.readyAt - restart.killedAt)} s later; its claimed attempts are handed on after the lease (${seconds(LEASE_MS)} s)`,
      ...lines,
    );
    expect(problems).toEqual([]);
    expect(delivered).toBe(true);
    expect(lost).toEqual([[], []]);
    // The retry path was taken: attempts the kill left unanswered came again, each with its webhook-id.
    expect(receivers.reduce((sum, receiver) => sum + receiver.received.length - byEvent(receiver.received).size, 0)).toBeGreaterThan(0);
    expect(committed.length).toBeGreaterThanOrEqual(1_000);
  }, 180_000);
});

describe('webhooks: a receiver that answers 500, then times out, then is down for two minutes', () => {
  const TIMEOUT_MS = 1_000;
  const OUTAGE_MS = 120_000;
  const EVENTS = 20;
  /** 12 retries: the last ones 15 s apart, so the last comes at least 140 s after the third attempt, past the outage. */
  const SCHEDULE = '1s,2s,5s,15s,15s,15s,15s,15s,15s,15s,15s,15s';
  const receiver = new WebhookReceiver();
  const hooks = twoReplicas({ WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_RETRY_SCHEDULE: SCHEDULE }, [receiver], summary);

  it('still gets every event afterwards, each with the same webhook-id', async () => {
    const { key } = await newClientKey(hooks.databaseUrl, 'hooks outage');
    const endpoint = await subscribe(hooks.replicas[0], key, receiver);
    const port = Number(new URL(receiver.url).port);
    let outage: 'before' | 'after' = 'before';
    // Per event: the first attempt gets a 500, the second hangs past the timeout; one that comes before the
    // outage could start is dropped, and after the outage every attempt is answered 204.
    receiver.answer = (attempt) => {
      if (outage === 'after') return 204;
      const seen = receiver.received.filter(({ id }) => id === attempt.id).length;
      return seen === 1 ? 500 : seen === 2 ? 'hang' : 'drop';
    };
    const burst = await createPets(hooks.replicas, () => [0, 1], { key, count: EVENTS, workers: 4 });
    const secondAttempts = await until(
      () => [...byEvent(receiver.received).values()].filter((a) => a.length >= 2).length === EVENTS,
      30_000,
    );
    expect(secondAttempts).toBe(true);
    await sleep(TIMEOUT_MS); // the hung attempts time out
    await receiver.stop();
    const downAt = Date.now();
    await sleep(OUTAGE_MS);
    outage = 'after';
    await receiver.start(port);
    const upAt = Date.now();
    const ids = burst.created;
    const delivered = await until(async () => notArrived(receiver, ids).length === 0 && (await pendingOf(endpoint)) === 0, 60_000, 200);

    const attempts = await queryDatabase<{
      event_id: string;
      attempt: number;
      status_code: number | null;
      error: string | null;
      attempted_at: Date;
    }>(
      hooks.databaseUrl,
      'SELECT event_id, attempt, status_code, error, attempted_at FROM webhook_attempts WHERE endpoint_id = $1 ORDER BY event_id, attempt',
      [endpoint],
    );
    const perEvent = new Map<string, typeof attempts>();
    for (const row of attempts) perEvent.set(row.event_id, [...(perEvent.get(row.event_id) ?? []), row]);
    const outcome = (row: (typeof attempts)[number]) => (row.status_code === null ? String(row.error) : String(row.status_code));
    const sequences = new Map<string, number>();
    for (const rows of perEvent.values()) {
      const sequence = collapse(rows.map(outcome));
      sequences.set(sequence, (sequences.get(sequence) ?? 0) + 1);
    }
    const counts = [...perEvent.values()].map((rows) => rows.length);
    const successes = [...perEvent.values()].map((rows) => rows.at(-1)!);
    const firstSuccess = Math.min(...successes.map((row) => row.attempted_at.getTime()));
    const lastSuccess = Math.max(...successes.map((row) => row.attempted_at.getTime()));
    const events = byEvent(receiver.received);
    summary.add(
      'Receiver: 500, then a timeout, then down 2 minutes',
      `${EVENTS} events; schedule ${SCHEDULE}, timeout ${TIMEOUT_MS} ms; receiver down ${seconds(upAt - downAt)} s (port closed)`,
      `attempts per event: ${Math.min(...counts)} to ${Math.max(...counts)} (${counts.reduce((sum, n) => sum + n, 0)} in all); outcomes in order: ${[...sequences].map(([sequence, n]) => `${n} x [${sequence}]`).join('; ')}`,
      `delivered after the receiver came back: every event, the first ${seconds(firstSuccess - upAt)} s and the last ${seconds(lastSuccess - upAt)} s after it; arrivals per webhook-id at the receiver ${Math.min(...[...events.values()].map((a) => a.length))} to ${Math.max(...[...events.values()].map((a) => a.length))}`,
    );
    expect(receiver.forged).toEqual([]);
    expect(delivered).toBe(true);
    expect(events.size).toBe(EVENTS);
    for (const rows of perEvent.values()) {
      expect(rows.slice(0, 2).map(outcome)).toEqual(['500', 'timeout']);
      expect(rows.slice(2, -1).length).toBeGreaterThan(0);
      expect(rows.slice(2, -1).every((row) => row.status_code === null)).toBe(true);
      expect(outcome(rows.at(-1)!)).toBe('204');
      expect(rows.at(-1)!.attempted_at.getTime()).toBeGreaterThanOrEqual(upAt - 1_000);
    }
  }, 240_000);

  async function pendingOf(endpoint: number): Promise<number> {
    const [row] = await queryDatabase<{ n: string }>(
      hooks.databaseUrl,
      `SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND state <> 'succeeded'`,
      [endpoint],
    );
    return Number(row.n);
  }
});

/** `a, b, b, b, c` as `a, b x3, c`. */
function collapse(outcomes: string[]): string {
  const runs: Array<[string, number]> = [];
  for (const outcome of outcomes) {
    if (runs.at(-1)?.[0] === outcome) runs.at(-1)![1] += 1;
    else runs.push([outcome, 1]);
  }
  return runs.map(([outcome, n]) => (n > 1 ? `${outcome} x${n}` : outcome)).join(', ');
}
