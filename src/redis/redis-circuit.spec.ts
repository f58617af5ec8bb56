import { EventEmitter } from 'node:events';
import { jest } from '@jest/globals';
import type { Logger } from '@nestjs/common';
import type { RedisClient } from './redis-client.js';
import { RedisCircuit } from './redis-circuit.js';

describe('RedisCircuit', () => {
  const ping = jest.fn<() => Promise<string>>();
  const client = Object.assign(new EventEmitter(), { ping, status: 'ready' }) as unknown as RedisClient & { status: string };
  const logger = { warn: jest.fn(), log: jest.fn() };
  let circuit: RedisCircuit;

  beforeEach(() => {
    jest.useFakeTimers();
    ping.mockReset();
    logger.warn.mockReset();
    logger.log.mockReset();
    client.status = 'ready';
    circuit = new RedisCircuit(client, logger as unknown as Logger, { down: (reason) => `down: ${reason}`, up: 'up again' });
  });
  afterEach(() => {
    circuit.close();
    jest.useRealTimers();
  });

  it('uses Redis while it answers', async () => {
    await expect(
      circuit.run(
        () => Promise.resolve('redis'),
        () => Promise.resolve('fallback'),
      ),
    ).resolves.toBe('redis');
    expect(circuit.isOpen).toBe(false);
  });

  it('answers from the fallback when Redis fails, and keeps doing so without trying Redis, logging once', async () => {
    const primary = jest.fn(() => Promise.reject(new Error('ECONNREFUSED')));
    await expect(circuit.run(primary, () => Promise.resolve('fallback'))).resolves.toBe('fallback');
    await expect(circuit.run(primary, () => Promise.resolve('fallback'))).resolves.toBe('fallback');
    expect(primary).toHaveBeenCalledTimes(1);
    expect(circuit.isOpen).toBe(true);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith('down: ECONNREFUSED');
  });

  it('goes back to Redis once a probe answers, logging once', async () => {
    circuit.trip(new Error('timeout'));
    ping.mockRejectedValueOnce(new Error('still down'));
    await jest.advanceTimersByTimeAsync(1_000);
    expect(circuit.isOpen).toBe(true);
    ping.mockResolvedValue('PONG');
    await jest.advanceTimersByTimeAsync(1_000);
    expect(circuit.isOpen).toBe(false);
    expect(logger.log).toHaveBeenCalledTimes(1);
    expect(logger.log).toHaveBeenCalledWith('up again');
  });

  it('probes at once when the client reconnects', async () => {
    circuit.trip(new Error('reset'));
    ping.mockResolvedValue('PONG');
    client.emit('ready');
    await Promise.resolve();
    await Promise.resolve();
    expect(circuit.isOpen).toBe(false);
  });

  it('is open while the client has no connection, and falls back without sending, logging once', async () => {
    client.status = 'reconnecting';
    expect(circuit.isOpen).toBe(true);
    const primary = jest.fn(() => Promise.resolve('redis'));
    await expect(circuit.run(primary, () => Promise.resolve('fallback'))).resolves.toBe('fallback');
    await expect(circuit.run(primary, () => Promise.resolve('fallback'))).resolves.toBe('fallback');
    expect(primary).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith('down: no connection (reconnecting)');

    client.status = 'ready';
    ping.mockResolvedValue('PONG');
    client.emit('ready');
    await Promise.resolve();
    await Promise.resolve();
    expect(circuit.isOpen).toBe(false);
    expect(logger.log).toHaveBeenCalledWith('up again');
  });
});
