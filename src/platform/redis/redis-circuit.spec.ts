import { EventEmitter } from 'node:events';
import { jest } from '@jest/globals';
import type { Logger } from '@nestjs/common';
import { Cluster } from 'ioredis';
import type { RedisClient } from './redis.module.js';
import { RedisCircuit } from './redis-circuit.js';

type FakeClient = RedisClient & { status: string; exists: jest.Mock<(key: string) => Promise<number>>; ping: jest.Mock };

function fakeClient(cluster = false): FakeClient {
  const client = Object.assign(Object.create(cluster ? Cluster.prototype : EventEmitter.prototype) as object, new EventEmitter(), {
    status: 'ready',
    exists: jest.fn<(key: string) => Promise<number>>(),
    ping: jest.fn(() => Promise.resolve('PONG')),
  });
  return client as unknown as FakeClient;
}

describe('RedisCircuit', () => {
  const logger = { warn: jest.fn(), log: jest.fn() };
  const redisAnswer = () => Promise.resolve('redis');
  const fallback = () => Promise.resolve('fallback');
  const failing = () => jest.fn(() => Promise.reject(new Error('Command timed out')));
  let client: FakeClient;
  let circuit: RedisCircuit;
  const open = (redis: FakeClient) =>
    (circuit = new RedisCircuit(redis, logger as unknown as Logger, { down: (reason) => `down: ${reason}`, up: 'up again' }));

  beforeEach(() => {
    jest.useFakeTimers();
    logger.warn.mockReset();
    logger.log.mockReset();
    client = fakeClient();
    open(client);
  });
  afterEach(() => {
    circuit.close();
    jest.useRealTimers();
  });

  it('uses Redis while it answers', async () => {
    await expect(circuit.run('k', redisAnswer, fallback)).resolves.toBe('redis');
    expect(circuit.isOpen).toBe(false);
  });

  it('answers from the fallback when Redis fails, and keeps doing so without trying Redis, logging once', async () => {
    const primary = failing();
    await expect(circuit.run('k', primary, fallback)).resolves.toBe('fallback');
    await expect(circuit.run('other', primary, fallback)).resolves.toBe('fallback');
    expect(primary).toHaveBeenCalledTimes(1);
    expect(circuit.isOpen).toBe(true);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith('down: Command timed out');
  });

  it('probes by reading the key that failed, never by PING, and closes once that read answers, logging once', async () => {
    circuit.trip('pets:rl:{c:1}', new Error('timeout'));
    client.exists.mockRejectedValueOnce(new Error('still down'));
    await jest.advanceTimersByTimeAsync(1_000);
    expect(circuit.isOpen).toBe(true);
    client.exists.mockResolvedValue(0);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(circuit.isOpen).toBe(false);
    expect(client.exists).toHaveBeenCalledWith('pets:rl:{c:1}');
    expect(client.ping).not.toHaveBeenCalled();
    expect(logger.log).toHaveBeenCalledTimes(1);
    expect(logger.log).toHaveBeenCalledWith('up again');
  });

  it('does not flap: while the failed place does not answer, it stays open however long, with one log line', async () => {
    circuit.trip('k', new Error('timeout'));
    client.exists.mockRejectedValue(new Error('Command timed out'));
    const primary = jest.fn(redisAnswer);
    for (let second = 0; second < 30; second++) {
      await jest.advanceTimersByTimeAsync(1_000);
      await expect(circuit.run('k', primary, fallback)).resolves.toBe('fallback');
    }
    expect(primary).not.toHaveBeenCalled();
    expect(client.exists.mock.calls.length).toBeGreaterThanOrEqual(29);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.log).not.toHaveBeenCalled();
  });

  it('probes at once when the client reconnects', async () => {
    circuit.trip('k', new Error('reset'));
    client.exists.mockResolvedValue(1);
    client.emit('ready');
    await Promise.resolve();
    await Promise.resolve();
    expect(circuit.isOpen).toBe(false);
  });

  it('is open while the client has no connection, and falls back without sending, logging once', async () => {
    client.status = 'reconnecting';
    expect(circuit.isOpen).toBe(true);
    const primary = jest.fn(redisAnswer);
    await expect(circuit.run('k', primary, fallback)).resolves.toBe('fallback');
    await expect(circuit.run('k', primary, fallback)).resolves.toBe('fallback');
    expect(primary).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith('down: no connection (reconnecting)');

    client.status = 'ready';
    client.emit('ready');
    expect(circuit.isOpen).toBe(false);
    expect(logger.log).toHaveBeenCalledWith('up again');
  });

  it('on a Cluster, opens only the slot that failed: keys in other slots keep using Redis', async () => {
    client = fakeClient(true);
    open(client);
    await expect(circuit.run('pets:rl:{a}', failing(), fallback)).resolves.toBe('fallback');
    expect(logger.warn).toHaveBeenCalledWith('down: slot 15495: Command timed out');
    const primary = jest.fn(redisAnswer);
    // {b} is in slot 3300: it keeps using Redis; a key with {a}'s hash tag shares its slot.
    await expect(circuit.run('pets:rl:{b}', primary, fallback)).resolves.toBe('redis');
    await expect(circuit.run('pets:idem:{a}:x', primary, fallback)).resolves.toBe('fallback');
    expect(primary).toHaveBeenCalledTimes(1);

    // A node that answers a PING does not close it: only a read of the failed key on its slot does.
    client.exists.mockRejectedValueOnce(new Error('Command timed out'));
    await jest.advanceTimersByTimeAsync(1_000);
    expect(circuit.isOpen).toBe(true);
    client.exists.mockResolvedValue(0);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(client.exists).toHaveBeenLastCalledWith('pets:rl:{a}');
    await expect(circuit.run('pets:rl:{a}', primary, fallback)).resolves.toBe('redis');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.log).toHaveBeenCalledTimes(1);
  });
});
