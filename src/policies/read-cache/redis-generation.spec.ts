import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { RedisClient } from '../../platform/redis/index.js';
import { RedisGeneration } from './redis-generation.js';

describe('RedisGeneration', () => {
  const incr = jest.fn<(key: string) => Promise<number>>();
  const generation = () => new RedisGeneration({ incr } as unknown as RedisClient, 'pets:generation');

  beforeEach(() => {
    incr.mockReset().mockResolvedValue(1);
  });

  it('sends one INCR for the creations that commit in the same turn of the event loop', async () => {
    const generations = generation();
    const bumps = [generations.bump(), generations.bump(), generations.bump()];
    expect(incr).not.toHaveBeenCalled();
    await Promise.all(bumps);
    expect(incr).toHaveBeenCalledTimes(1);
    expect(incr).toHaveBeenCalledWith('pets:generation');
  });

  it('sends another INCR for a creation committed after the shared one was sent', async () => {
    const generations = generation();
    let reply!: (value: number) => void;
    incr.mockReturnValueOnce(new Promise((resolve) => (reply = resolve)));
    const first = generations.bump();
    await new Promise((resolve) => setImmediate(resolve));
    expect(incr).toHaveBeenCalledTimes(1);
    const second = generations.bump();
    reply(1);
    await Promise.all([first, second]);
    expect(incr).toHaveBeenCalledTimes(2);
  });

  it('resolves and logs when Redis cannot record the change', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    incr.mockRejectedValueOnce(new Error('Connection is closed.'));
    await expect(generation().bump()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Connection is closed.'));
    warn.mockRestore();
  });
});
