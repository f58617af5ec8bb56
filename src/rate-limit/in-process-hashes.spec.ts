import { Clock } from '../common/clock/clock.js';
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
});
