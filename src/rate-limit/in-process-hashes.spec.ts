import { Clock } from '../common/index.js';
import { InProcessHashes } from './in-process-hashes.js';

class ManualClock extends Clock {
  ms = 1_000;
  now(): Date {
    return new Date(this.ms);
  }
}

describe('InProcessHashes', () => {
  const clock = new ManualClock();
  let hashes: InProcessHashes;

  beforeEach(() => {
    clock.ms = 1_000;
    hashes = new InProcessHashes(clock);
  });
  afterEach(() => hashes.close());

  it('answers HMGET with the fields set by HSET, as strings, and false for missing ones', () => {
    hashes.call('HSET', 'k', ['a', 1, 'b', 'two']);
    expect(hashes.call('HMGET', 'k', ['a', 'b', 'c'])).toEqual(['1', 'two', false]);
    expect(hashes.call('HMGET', 'other', ['a'])).toEqual([false]);
  });

  it('forgets a hash at the instant given to PEXPIREAT', () => {
    hashes.call('HSET', 'k', ['a', 1]);
    expect(hashes.call('PEXPIREAT', 'k', [1_500])).toBe(1);
    clock.ms = 1_499;
    expect(hashes.call('HMGET', 'k', ['a'])).toEqual(['1']);
    clock.ms = 1_500;
    expect(hashes.call('HMGET', 'k', ['a'])).toEqual([false]);
    expect(hashes.call('PEXPIREAT', 'k', [9_000])).toBe(0);
  });

  it('refuses commands the limiter script does not use', () => {
    expect(() => hashes.call('DEL', 'k', [])).toThrow('does not implement DEL');
  });

  describe('when full', () => {
    it('evicts the hash used longest ago with evict-least-recent', () => {
      const table = new InProcessHashes(clock, 2, 'evict-least-recent');
      table.call('HSET', 'a', ['n', 1]);
      table.call('HSET', 'b', ['n', 2]);
      table.call('HMGET', 'a', ['n']);
      table.call('HSET', 'c', ['n', 3]);
      expect([table.call('HMGET', 'a', ['n']), table.call('HMGET', 'b', ['n']), table.size]).toEqual([['1'], [false], 2]);
      table.close();
    });

    it('keeps every hash with refuse-new and has no room for a newcomer until one expires', () => {
      const table = new InProcessHashes(clock, 2, 'refuse-new');
      table.call('HSET', 'a', ['n', 1]);
      table.call('PEXPIREAT', 'a', [5_000]);
      table.call('HSET', 'b', ['n', 2]);
      expect([table.hasRoomFor('a'), table.hasRoomFor('b'), table.hasRoomFor('c')]).toEqual([true, true, false]);
      clock.ms = 5_000;
      expect(table.hasRoomFor('c')).toBe(true);
      expect(table.size).toBe(1);
      table.close();
    });
  });
});
