import { jest } from '@jest/globals';
import type { ConfigService } from '@nestjs/config';
import { Clock } from '../../common/index.js';
import { DeliveryWorker } from './delivery-worker.js';
import type { AttemptOutcome, ClaimedDelivery, OutboxRepository } from './outbox.repository.js';
import type { SendResult, WebhookSender } from './webhook-sender.js';
import type { WebhooksConfig } from './webhooks.config.js';
import type { WebhooksMetrics } from './webhooks.metrics.js';

class FixedClock extends Clock {
  now(): Date {
    return new Date('2027-03-01T12:00:00Z');
  }
}

const SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/**
 * The worker over stand-ins for the outbox and the sender: each claimed delivery is attempted once, and what
 * it records says when the next attempt is due. Deliveries are claimed on the first poll only.
 */
async function recorded(deliveries: ClaimedDelivery[], answer: SendResult): Promise<AttemptOutcome[]> {
  const outcomes: AttemptOutcome[] = [];
  let claimed = false;
  const outbox = {
    dispatch: jest.fn(() => Promise.resolve(0)),
    claim: jest.fn(() => Promise.resolve(claimed ? [] : ((claimed = true), deliveries))),
    record: jest.fn((batch: readonly AttemptOutcome[]) => Promise.resolve(void outcomes.push(...batch))),
  };
  const sender = { send: jest.fn(() => Promise.resolve(answer)) };
  const metrics = { attempts: { inc: jest.fn() } };
  const config: Partial<WebhooksConfig> = { retryScheduleMs: SCHEDULE_MS, concurrency: 1_000, pollIntervalMs: 60_000, delivers: true };
  const worker = new DeliveryWorker(
    outbox as unknown as OutboxRepository,
    sender as unknown as WebhookSender,
    metrics as unknown as WebhooksMetrics,
    new FixedClock(),
    { getOrThrow: () => config } as unknown as ConfigService,
  );
  worker.onApplicationBootstrap();
  while (outcomes.length < deliveries.length) await new Promise((resolve) => setTimeout(resolve, 5));
  await worker.onApplicationShutdown();
  return outcomes;
}

const delivery = (id: number, retriesLeft: number): ClaimedDelivery => ({
  id,
  attempt: SCHEDULE_MS.length - retriesLeft + 1,
  retriesLeft,
  eventId: `evt_${String(id).padStart(32, '0')}`,
  eventType: 'webhook.test',
  body: '{}',
  endpointId: 1,
  url: 'https://hooks.example/in',
  secrets: [`whsec_${Buffer.alloc(32, 1).toString('base64')}`],
});

describe('DeliveryWorker retries', () => {
  const failed: SendResult = { statusCode: 500, error: null, durationMs: 3 };

  it("waits the schedule's step for each retry left, with at most 20 % jitter, spread over a burst", async () => {
    const perStep = 40;
    const deliveries = SCHEDULE_MS.flatMap((_, step) =>
      Array.from({ length: perStep }, (__, i) => delivery(step * perStep + i + 1, SCHEDULE_MS.length - step)),
    );
    const outcomes = await recorded(deliveries, failed);
    for (const [step, waitMs] of SCHEDULE_MS.entries()) {
      const delays = outcomes.filter(({ delivery: { retriesLeft } }) => retriesLeft === SCHEDULE_MS.length - step).map((o) => o.retryInMs!);
      expect(delays).toHaveLength(perStep);
      expect({ step, shortest: Math.min(...delays) >= waitMs, longest: Math.max(...delays) <= waitMs * 1.2 }).toEqual({
        step,
        shortest: true,
        longest: true,
      });
      // Jitter, not a constant: 40 retries of one step do not all wait the same.
      expect(new Set(delays).size).toBeGreaterThan(perStep / 2);
    }
    expect(outcomes.every(({ succeeded }) => !succeeded)).toBe(true);
  });

  it('retries no more once none is left, and never after a 2xx', async () => {
    const [last] = await recorded([delivery(1, 0)], failed);
    expect(last).toMatchObject({ succeeded: false, retryInMs: undefined, statusCode: 500 });
    for (const statusCode of [200, 204, 299]) {
      const [done] = await recorded([delivery(2, 3)], { statusCode, error: null, durationMs: 1 });
      expect(done).toMatchObject({ succeeded: true, retryInMs: undefined, statusCode });
    }
    for (const answer of [
      { statusCode: 301, error: null },
      { statusCode: 199, error: null },
      { statusCode: null, error: 'blocked_address' },
    ]) {
      const [retried] = await recorded([delivery(3, 7)], { ...answer, durationMs: 1 });
      expect(retried).toMatchObject({ succeeded: false, ...answer });
      expect(retried.retryInMs).toBeGreaterThanOrEqual(SCHEDULE_MS[0]);
    }
  });
});
