import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { UsageDaysRepository } from '../../src/modules/usage/usage-days.repository.js';
import { UsageMeter } from '../../src/modules/usage/usage-meter.js';
import { UsageRetention } from '../../src/modules/usage/usage-retention.js';
import { UsageService } from '../../src/modules/usage/usage.service.js';
import type { KeyDecision } from '../../src/policies/rate-limit/index.js';
import { FakeClock } from '../support/fake-clock.js';
import { emptyDatabase } from '../support/test-databases.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';

/**
 * The usage_days upsert on the real PostgreSQL named by DATABASE_URL: two instances A and B on one
 * database stand for two replicas, each with its own meter, flushing the same rows.
 */
/** A database of this suite's own (test/support/test-databases.ts). */
const DATABASE_URL = await emptyDatabase();

describe('Usage on PostgreSQL, two instances flushing the same rows (integration)', () => {
  const clock = new FakeClock(new Date('2027-03-01T12:00:00Z'));
  let a: TestApp;
  let b: TestApp;
  const meterOf = (t: TestApp) => t.app.get(UsageMeter);
  const decision = (clientId: number, keyId: number, outcome: KeyDecision['outcome'], instant = '2027-03-01T12:00:00Z'): KeyDecision => ({
    clientId,
    keyId,
    outcome,
    nowMs: Date.parse(instant),
    plan: 'free',
    day: { used: 1, limit: 1_000, resetMs: Math.ceil(Date.parse(instant) / 86_400_000) * 86_400_000 },
  });
  const newClient = async () => (await a.app.get(ClientsService).create('Metered', 'pro', {}, OPERATOR)).id;
  const usage = (clientId: number, from = '2027-03-01', to = '2027-03-01') => a.app.get(UsageService).forClient(clientId, { from, to });

  beforeAll(async () => {
    a = await createTestApp({ clock, env: { DATABASE_URL } });
    b = await createTestApp({ clock, env: { DATABASE_URL, DATABASE_MIGRATIONS_RUN: 'false' } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });
  afterEach(() => jest.restoreAllMocks());

  it('adds each flush to the rows the previous ones wrote, and reads them back per UTC day and key', async () => {
    const clientId = await newClient();
    meterOf(a).record(decision(clientId, 1, 'admitted', '2027-02-28T23:59:59.999Z'));
    meterOf(a).record(decision(clientId, 1, 'admitted'));
    meterOf(a).record(decision(clientId, 2, 'refused'));
    await meterOf(a).flush();
    meterOf(a).record(decision(clientId, 1, 'admitted'));
    meterOf(a).record(decision(clientId, 1, 'suspended'));
    await meterOf(a).flush();

    await expect(usage(clientId, '2027-02-28')).resolves.toEqual({
      from: '2027-02-28',
      to: '2027-03-01',
      days: [
        { day: '2027-02-28', keyId: 1, admitted: 1, refused: 0 },
        { day: '2027-03-01', keyId: 1, admitted: 2, refused: 1 },
        { day: '2027-03-01', keyId: 2, admitted: 0, refused: 1 },
      ],
      totals: { admitted: 3, refused: 2 },
    });
  });

  it('reads the same UTC days whatever time zone the process runs in (PostgreSQL dates are parsed in local time)', async () => {
    const clientId = await newClient();
    meterOf(a).record(decision(clientId, 1, 'admitted', '2027-03-01T00:00:00Z'));
    await meterOf(a).flush();
    const saved = process.env.TZ;
    try {
      for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC']) {
        process.env.TZ = zone;
        expect((await usage(clientId)).days).toEqual([{ day: '2027-03-01', keyId: 1, admitted: 1, refused: 0 }]);
      }
    } finally {
      process.env.TZ = saved;
    }
  });

  it('keeps every count when both instances flush the same rows at once, round after round, without a deadlock', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const clientId = await newClient();
    const KEYS = 1_000;
    const ROUNDS = 10;
    for (let round = 0; round < ROUNDS; round++) {
      // Each instance meets the keys in its own order, so their rows would interleave unless written in key order.
      for (let k = 1; k <= KEYS; k++) {
        meterOf(a).record(decision(clientId, k, 'admitted'));
        meterOf(b).record(decision(clientId, KEYS + 1 - k, round % 2 ? 'refused' : 'admitted'));
      }
      await Promise.all([meterOf(a).flush(), meterOf(b).flush()]);
    }
    expect(warn).not.toHaveBeenCalled();
    expect([meterOf(a).pendingCounts(), meterOf(b).pendingCounts()]).toEqual([0, 0]);
    const { days, totals } = await usage(clientId);
    expect(days).toHaveLength(KEYS);
    expect(days.every((row) => row.admitted === ROUNDS + Math.ceil(ROUNDS / 2) && row.refused === Math.floor(ROUNDS / 2))).toBe(true);
    expect(totals).toEqual({ admitted: KEYS * (ROUNDS + Math.ceil(ROUNDS / 2)), refused: KEYS * Math.floor(ROUNDS / 2) });
  });

  it('meters real requests answered by both instances', async () => {
    const client = await a.app.get(ClientsService).create('Requests', 'enterprise', { perMinute: 1_000_000, perDay: 1_000_000 }, OPERATOR);
    const { key } = await a.app.get(ApiKeysService).issue(client.id, {}, OPERATOR);
    const sends = [a, b].flatMap((t) =>
      Array.from({ length: 20 }, () =>
        t
          .http()
          .get('/v1/pets')
          .set({ Authorization: `Bearer ${key}` }),
      ),
    );
    expect((await Promise.all(sends)).every((res) => res.status === 200)).toBe(true);
    await Promise.all([meterOf(a).flush(), meterOf(b).flush()]);
    expect((await usage(client.id)).totals).toEqual({ admitted: 40, refused: 0 });
  });

  it('deletes the days more than 400 days old, and only those', async () => {
    const clientId = await newClient();
    const row = (day: string) => ({ clientId, keyId: 1, day, admitted: 1, refused: 0 });
    await a.app.get(UsageDaysRepository).add([row('2026-01-24'), row('2026-01-25'), row('2027-03-01')]);
    await expect(a.app.get(UsageRetention).run()).resolves.toBeGreaterThanOrEqual(1);
    const left = await usage(clientId, '2025-12-01', '2026-03-01');
    expect(left.days.map((r) => r.day)).toEqual(['2026-01-25']);
  });
});
