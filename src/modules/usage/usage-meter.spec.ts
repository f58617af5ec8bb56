import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { Registry } from 'prom-client';
import { RateLimiterService, type KeyDecision, type KeyDecisionListener } from '../../policies/rate-limit/index.js';
import type { UsageDay } from './entities/usage-day.entity.js';
import { UsageDaysRepository } from './usage-days.repository.js';
import { UsageMeter } from './usage-meter.js';

const INTERVAL_MS = 10_000;
/** The limiter's clock: the instants its decisions carry. */
const at = (instant: string) => Date.parse(instant);
const NOON = at('2027-03-01T12:00:00Z');

describe('UsageMeter (the limiter and the repository mocked)', () => {
  let meter: UsageMeter;
  let decide: KeyDecisionListener;
  let registry: Registry;
  const add = jest.fn<UsageDaysRepository['add']>();
  /** What the repository was given, statement by statement. */
  const written = () => add.mock.calls.map(([rows]) => [...rows]);
  const decision = (keyId: number, outcome: KeyDecision['outcome'], nowMs = NOON, clientId = 7): KeyDecision => ({
    clientId,
    keyId,
    outcome,
    nowMs,
    plan: 'free',
    day: { used: 1, limit: 1_000, resetMs: Math.ceil(nowMs / 86_400_000) * 86_400_000 },
  });
  const metric = async (name: string) => (await registry.getSingleMetricAsString(name)).split('\n').filter((line) => !line.startsWith('#'));

  beforeEach(async () => {
    jest.resetAllMocks();
    add.mockResolvedValue(undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const moduleRef = await Test.createTestingModule({
      providers: [
        UsageMeter,
        { provide: Registry, useValue: (registry = new Registry()) },
        { provide: RateLimiterService, useValue: { onDecision: (listener: KeyDecisionListener) => (decide = listener) } },
        { provide: UsageDaysRepository, useValue: { add } },
        { provide: ConfigService, useValue: { getOrThrow: () => ({ flushIntervalMs: INTERVAL_MS }) } },
      ],
    }).compile();
    meter = moduleRef.get(UsageMeter);
  });

  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('subscribes to the limiter and adds up its decisions per key and UTC day; suspensions count as refusals', async () => {
    for (const outcome of ['admitted', 'admitted', 'refused', 'suspended'] as const) decide(decision(1, outcome));
    decide(decision(2, 'admitted', NOON, 8));
    expect(meter.pendingCounts()).toBe(5);
    expect(add).not.toHaveBeenCalled();

    await meter.flush();
    expect(written()).toEqual([
      [
        { clientId: 7, keyId: 1, day: '2027-03-01', admitted: 2, refused: 2 },
        { clientId: 8, keyId: 2, day: '2027-03-01', admitted: 1, refused: 0 },
      ],
    ]);
    expect(meter.pendingCounts()).toBe(0);
    // Nothing counted since: no statement.
    await meter.flush();
    expect(add).toHaveBeenCalledTimes(1);
    expect(await metric('usage_flush_statements_total')).toContain('usage_flush_statements_total{outcome="written"} 1');
    expect(await metric('usage_flush_rows_total')).toContain('usage_flush_rows_total 2');
  });

  it("splits the counts at UTC midnight by the limiter's clock, whatever the replica's", async () => {
    decide(decision(1, 'admitted', at('2027-03-01T23:59:59.999Z')));
    decide(decision(1, 'refused', at('2027-03-01T23:59:59.999Z')));
    decide(decision(1, 'admitted', at('2027-03-02T00:00:00.000Z')));
    await meter.flush();
    expect(written()).toEqual([
      [
        { clientId: 7, keyId: 1, day: '2027-03-01', admitted: 1, refused: 1 },
        { clientId: 7, keyId: 1, day: '2027-03-02', admitted: 1, refused: 0 },
      ],
    ]);
  });

  it('keeps the counts of a failed flush, with those made since, for the next one', async () => {
    decide(decision(1, 'admitted'));
    decide(decision(1, 'refused'));
    add.mockRejectedValueOnce(new Error('connection refused'));
    await meter.flush();
    expect(Logger.prototype.warn).toHaveBeenCalledWith(expect.stringContaining('2 counts kept for the next flush'));
    decide(decision(1, 'admitted'));
    decide(decision(3, 'admitted'));

    await meter.flush();
    expect(written()[1]).toEqual([
      { clientId: 7, keyId: 1, day: '2027-03-01', admitted: 2, refused: 1 },
      { clientId: 7, keyId: 3, day: '2027-03-01', admitted: 1, refused: 0 },
    ]);
    expect(meter.pendingCounts()).toBe(0);
    expect(await metric('usage_flush_statements_total')).toEqual(
      expect.arrayContaining(['usage_flush_statements_total{outcome="failed"} 1', 'usage_flush_statements_total{outcome="written"} 1']),
    );
  });

  it('writes at most 1,000 rows a statement, and keeps only the rows of the statements that failed', async () => {
    for (let keyId = 1; keyId <= 2_500; keyId++) decide(decision(keyId, 'admitted'));
    add.mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('statement timeout'));
    await meter.flush();
    expect(written().map((rows) => rows.length)).toEqual([1_000, 1_000]);
    expect(meter.pendingCounts()).toBe(1_500);

    await meter.flush();
    const retried = written().slice(2).flat();
    expect(retried.map((row: UsageDay) => row.keyId).sort((a, b) => a - b)).toEqual(Array.from({ length: 1_500 }, (_, i) => 1_001 + i));
  });

  it('runs one flush at a time: a second waits for the first to end', async () => {
    let release!: () => void;
    add.mockReturnValueOnce(new Promise<void>((resolve) => (release = resolve)));
    decide(decision(1, 'admitted'));
    const first = meter.flush();
    await new Promise((resolve) => setImmediate(resolve));
    decide(decision(1, 'admitted'));
    const second = meter.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(add).toHaveBeenCalledTimes(1);
    release();
    await Promise.all([first, second]);
    expect(written()).toEqual([
      [{ clientId: 7, keyId: 1, day: '2027-03-01', admitted: 1, refused: 0 }],
      [{ clientId: 7, keyId: 1, day: '2027-03-01', admitted: 1, refused: 0 }],
    ]);
  });

  it('flushes every USAGE_FLUSH_INTERVAL_MS once the application has started', async () => {
    jest.useFakeTimers();
    meter.onApplicationBootstrap();
    decide(decision(1, 'admitted'));
    await jest.advanceTimersByTimeAsync(INTERVAL_MS - 1);
    expect(add).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(add).toHaveBeenCalledTimes(1);
    await meter.onApplicationShutdown();
  });

  it('writes what it holds when the application stops, and flushes no more', async () => {
    jest.useFakeTimers();
    meter.onApplicationBootstrap();
    decide(decision(1, 'refused'));
    await meter.onApplicationShutdown();
    expect(written()).toEqual([[{ clientId: 7, keyId: 1, day: '2027-03-01', admitted: 0, refused: 1 }]]);
    await jest.advanceTimersByTimeAsync(3 * INTERVAL_MS);
    expect(add).toHaveBeenCalledTimes(1);
    expect(Logger.prototype.error).not.toHaveBeenCalled();
  });

  it('says how many counts are lost when the database refuses the last flush', async () => {
    add.mockRejectedValue(new Error('the database system is shutting down'));
    decide(decision(1, 'admitted'));
    decide(decision(2, 'refused'));
    await meter.onApplicationShutdown();
    expect(Logger.prototype.error).toHaveBeenCalledWith('Stopping with 2 counts of usage not written: they are lost');
  });
});
