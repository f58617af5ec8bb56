import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { ClsService } from 'nestjs-cls';
import type { RequestContext } from '../../common/index.js';
import type { RedisClient } from '../../platform/redis/index.js';
import { RedisGeneration } from './data-generation.js';

describe('RedisGeneration', () => {
  const hincrby = jest.fn<(key: string, field: string, by: number) => Promise<number>>();
  let read: RequestContext['dataGenerations'];
  const cls = { get: () => read } as unknown as ClsService<RequestContext>;
  const generation = () => new RedisGeneration({ hincrby } as unknown as RedisClient, 'pets:generations', cls);

  beforeEach(() => {
    hincrby.mockReset().mockResolvedValue(1);
  });

  it("answers a tag's generation from what the quota decision read, 0 for a tag never written, nothing when none was read", () => {
    const generations = generation();
    read = { pets: 4 };
    expect([generations.of('pets'), generations.of('kennels')]).toEqual([4, 0]);
    read = undefined;
    expect(generations.of('pets')).toBeUndefined();
  });

  it('sends one HINCRBY per tag for the writes that commit in the same turn of the event loop', async () => {
    const generations = generation();
    const bumps = [generations.bump('pets'), generations.bump('pets'), generations.bump('kennels'), generations.bump('pets')];
    expect(hincrby).not.toHaveBeenCalled();
    await Promise.all(bumps);
    expect(hincrby.mock.calls).toEqual([
      ['pets:generations', 'pets', 1],
      ['pets:generations', 'kennels', 1],
    ]);
  });

  it('sends another HINCRBY for a write committed after the shared one was sent', async () => {
    const generations = generation();
    let reply!: (value: number) => void;
    hincrby.mockReturnValueOnce(new Promise((resolve) => (reply = resolve)));
    const first = generations.bump('pets');
    await new Promise((resolve) => setImmediate(resolve));
    expect(hincrby).toHaveBeenCalledTimes(1);
    const second = generations.bump('pets');
    reply(1);
    await Promise.all([first, second]);
    expect(hincrby).toHaveBeenCalledTimes(2);
  });

  it('resolves and logs when Redis cannot record the change', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    hincrby.mockRejectedValueOnce(new Error('Connection is closed.'));
    await expect(generation().bump('pets')).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Connection is closed.'));
    warn.mockRestore();
  });
});
