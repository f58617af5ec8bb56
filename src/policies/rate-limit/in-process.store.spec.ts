import { Clock } from '../../common/index.js';
import { InProcessStore } from './in-process.store.js';
import type { LimiterRequest } from './limiter.store.js';

class ManualClock extends Clock {
  ms = Date.parse('2027-03-01T12:00:10Z');
  now(): Date {
    return new Date(this.ms);
  }
}

const limits = { perMinute: 2, perDay: 100 };
const ban = { threshold: 30, durationMs: 900_000 };
const address = (ip: string): LimiterRequest => ({ subjectKey: `rl:{ip:${ip}}`, limits, ban });
const client = (id: number): LimiterRequest => ({ subjectKey: `rl:{c:${id}}`, keyId: id, limits, ban });

describe('InProcessStore capacity', () => {
  const clock = new ManualClock();
  let store: InProcessStore;

  beforeEach(() => {
    store = new InProcessStore(clock, { clients: 10, addresses: 3 });
  });

  it('refuses a new address when the address table is full, and keeps the counts of those it holds', async () => {
    for (const ip of ['a', 'b', 'c']) expect((await store.consume(address(ip))).outcome).toBe('admitted');
    expect(await store.consume(address('d'))).toMatchObject({ outcome: 'refused', usedMinute: 2 });
    expect(await store.consume(address('a'))).toMatchObject({ outcome: 'admitted', usedMinute: 2 });
    expect((await store.consume(address('a'))).outcome).toBe('refused');
    expect(store.size).toEqual({ clients: 0, addresses: 3 });
  });

  it('counts clients apart from addresses: a full address table admits clients and leaves their counts', async () => {
    expect((await store.consume(client(1))).outcome).toBe('admitted');
    for (const ip of ['a', 'b', 'c', 'd', 'e']) await store.consume(address(ip));
    expect(await store.consume(client(1))).toMatchObject({ outcome: 'admitted', usedMinute: 2 });
    expect((await store.consume(client(2))).outcome).toBe('admitted');
    expect(store.size).toEqual({ clients: 2, addresses: 3 });
  });

  it('keeps no record for a peek, and a peek does not keep a client from being the first evicted', async () => {
    expect(await store.peek(client(1))).toMatchObject({ outcome: 'read', usedMinute: 0 });
    expect(store.size).toEqual({ clients: 0, addresses: 0 });
    for (let id = 1; id <= 10; id++) await store.consume(client(id));
    expect(await store.peek(client(1))).toMatchObject({ outcome: 'read', usedMinute: 1 });
    await store.consume(client(11));
    expect(await store.peek(client(1))).toMatchObject({ outcome: 'read', usedMinute: 0 });
    expect(await store.peek(client(2))).toMatchObject({ outcome: 'read', usedMinute: 1 });
  });

  it('makes room for new addresses again when the day ends', async () => {
    for (const ip of ['a', 'b', 'c']) await store.consume(address(ip));
    clock.ms = Date.parse('2027-03-02T00:00:00.001Z');
    expect((await store.consume(address('d'))).outcome).toBe('admitted');
  });
});
