import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { UsageDaysRepository } from './usage-days.repository.js';
import { UsageRetention } from './usage-retention.js';

describe('UsageRetention', () => {
  const deleteBefore = jest.fn<UsageDaysRepository['deleteBefore']>();
  const retention = new UsageRetention({ deleteBefore } as unknown as UsageDaysRepository, { now: () => new Date('2027-03-01T00:30:00Z') });

  afterEach(() => {
    jest.resetAllMocks();
    jest.useRealTimers();
  });

  it('deletes the days more than 400 days before today (UTC)', async () => {
    deleteBefore.mockResolvedValue(3);
    await expect(retention.run()).resolves.toBe(3);
    expect(deleteBefore).toHaveBeenCalledWith('2026-01-25');
  });

  it('runs hourly once the application has started, not before, and stops with it', async () => {
    jest.useFakeTimers();
    deleteBefore.mockResolvedValue(0);
    retention.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(60 * 60_000 - 1);
    expect(deleteBefore).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(deleteBefore).toHaveBeenCalledTimes(1);
    retention.onApplicationShutdown();
    await jest.advanceTimersByTimeAsync(2 * 60 * 60_000);
    expect(deleteBefore).toHaveBeenCalledTimes(1);
  });

  it('logs a failure and tries again at the next hour', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    deleteBefore.mockRejectedValue(new Error('connection refused'));
    await expect(retention.run()).resolves.toBe(0);
    expect(warn).toHaveBeenCalledWith('Could not delete old usage: connection refused');
  });
});
