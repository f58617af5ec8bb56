import { randomUUID } from 'node:crypto';
import type { LimiterFacts, LimiterRequest, LimiterStore } from '../../src/policies/rate-limit/limiter.store.js';
import { FakeClock } from './fake-clock.js';

const BAN = { threshold: 30, durationMs: 15 * 60_000 };
const FREE = { perMinute: 60, perDay: 1_000 };

export interface StoreUnderTest {
  store: LimiterStore;
  /** What its facts name as the store that decided (a trace's quota decision shows it). */
  name: LimiterFacts['store'];
  close: () => Promise<void>;
}

/**
 * The limiter's semantics, checked the same way on every store (in-process and Redis), with
 * time driven by a fake clock: exact quotas, windows, strikes and suspensions.
 */
export function describeLimiterStore(name: string, open: (clock: FakeClock) => Promise<StoreUnderTest>): void {
  describe(`${name}: limiter semantics`, () => {
    let clock: FakeClock;
    let subject: StoreUnderTest;
    // Every test uses its own subjects, so stores that persist (Redis) need no cleaning.
    const request = (overrides: Partial<LimiterRequest> = {}): LimiterRequest => ({
      subjectKey: `test:rl:{${randomUUID()}}`,
      keyId: 1,
      limits: FREE,
      ban: BAN,
      ...overrides,
    });
    const burst = async (req: LimiterRequest, count: number) => {
      const outcomes = await Promise.all(Array.from({ length: count }, () => subject.store.consume(req)));
      return outcomes.map((f) => f.outcome);
    };
    const count = (outcomes: string[], outcome: string) => outcomes.filter((o) => o === outcome).length;

    beforeEach(async () => {
      clock = new FakeClock(new Date('2027-03-01T12:00:10Z'));
      subject = await open(clock);
    });
    afterEach(() => subject.close());

    it('admits exactly 60 of 100 concurrent requests of a free client (the key is suspended after 30 refusals)', async () => {
      const outcomes = await burst(request(), 100);
      expect(count(outcomes, 'admitted')).toBe(60);
      expect(count(outcomes, 'refused')).toBe(30);
      expect(count(outcomes, 'suspended')).toBe(10);
    });

    it('is exact on a day quota below the minute quota', async () => {
      const req = request({ keyId: undefined, limits: { perMinute: 100, perDay: 7 } });
      const outcomes = await burst(req, 50);
      expect(count(outcomes, 'admitted')).toBe(7);
      clock.advance(60_000);
      expect((await subject.store.consume(req)).outcome).toBe('refused');
    });

    it('counts an admitted request in both windows and a refused one in neither', async () => {
      const req = request({ keyId: undefined });
      await burst(req, 70);
      clock.set('2027-03-01T12:01:00Z');
      const next = await subject.store.consume(req);
      expect(next).toEqual({
        outcome: 'admitted',
        store: subject.name,
        usedMinute: 1,
        usedDay: 61,
        nowMs: clock.now().getTime(),
        suspendedUntilMs: 0,
      });
    });

    it('opens a new minute window on the minute', async () => {
      const req = request();
      clock.set('2027-03-01T12:00:59.999Z');
      expect(count(await burst(req, 61), 'admitted')).toBe(60);
      clock.set('2027-03-01T12:01:00Z');
      expect((await subject.store.consume(req)).outcome).toBe('admitted');
    });

    it('opens a new day window at midnight UTC', async () => {
      const req = request({ limits: { perMinute: 10, perDay: 3 } });
      clock.set('2027-03-01T23:59:59Z');
      expect(count(await burst(req, 5), 'admitted')).toBe(3);
      clock.set('2027-03-02T00:00:00Z');
      expect(await subject.store.consume(req)).toMatchObject({ outcome: 'admitted', usedDay: 1 });
    });

    it('lets all keys of one client share its quota', async () => {
      const subjectKey = `test:rl:{${randomUUID()}}`;
      const a = await burst(request({ subjectKey, keyId: 1 }), 40);
      const b = await burst(request({ subjectKey, keyId: 2 }), 40);
      expect(count([...a, ...b], 'admitted')).toBe(60);
    });

    it('suspends a key from the request after its 30th refusal in a minute, for the ban duration, without extending it', async () => {
      const req = request();
      await burst(req, 60);
      for (let i = 1; i <= 30; i++) expect((await subject.store.consume(req)).outcome).toBe('refused');
      const suspended = await subject.store.consume(req);
      expect(suspended).toMatchObject({ outcome: 'suspended', suspendedUntilMs: clock.now().getTime() + BAN.durationMs });
      clock.advance(10 * 60_000);
      expect(await subject.store.consume(req)).toMatchObject({ outcome: 'suspended', suspendedUntilMs: suspended.suspendedUntilMs });
      clock.set(new Date(suspended.suspendedUntilMs));
      expect(await subject.store.consume(req)).toMatchObject({ outcome: 'admitted', usedMinute: 1, usedDay: 61 });
    });

    it('suspends only the key that kept sending, not the other keys of its client', async () => {
      const subjectKey = `test:rl:{${randomUUID()}}`;
      await burst(request({ subjectKey, keyId: 1 }), 91);
      expect((await subject.store.consume(request({ subjectKey, keyId: 1 }))).outcome).toBe('suspended');
      expect((await subject.store.consume(request({ subjectKey, keyId: 2 }))).outcome).toBe('refused');
    });

    it('counts strikes per minute: 29 refusals in each of two minutes suspend nothing', async () => {
      const req = request({ limits: { perMinute: 1, perDay: 1_000 } });
      await burst(req, 30);
      clock.advance(60_000);
      const outcomes = await burst(req, 30);
      expect(count(outcomes, 'suspended')).toBe(0);
    });

    it('never suspends an anonymous caller', async () => {
      const outcomes = await burst(request({ keyId: undefined }), 200);
      expect(count(outcomes, 'suspended')).toBe(0);
      expect(count(outcomes, 'admitted')).toBe(60);
    });

    it('peeks at both windows without counting: the next admitted request is one more than the peek saw', async () => {
      const req = request();
      await burst(req, 3);
      const peeks = await Promise.all(Array.from({ length: 100 }, () => subject.store.peek(req)));
      const nowMs = clock.now().getTime();
      for (const peek of peeks)
        expect(peek).toEqual({ outcome: 'read', store: subject.name, usedMinute: 3, usedDay: 3, nowMs, suspendedUntilMs: 0 });
      expect(await subject.store.consume(req)).toMatchObject({ outcome: 'admitted', usedMinute: 4, usedDay: 4 });
    });

    it('peeks at a new subject and a past minute as unused, and at a full window without refusing or striking', async () => {
      const req = request({ limits: { perMinute: 2, perDay: 1_000 } });
      expect(await subject.store.peek(req)).toMatchObject({ outcome: 'read', usedMinute: 0, usedDay: 0 });
      await burst(req, 2);
      for (let i = 0; i < BAN.threshold; i++) expect(await subject.store.peek(req)).toMatchObject({ outcome: 'read', usedMinute: 2 });
      expect((await subject.store.consume(req)).outcome).toBe('refused');
      clock.advance(60_000);
      expect(await subject.store.peek(req)).toMatchObject({ outcome: 'read', usedMinute: 0, usedDay: 2 });
    });

    it("peeks at a suspended key as suspended, until the ban's end; the client's other keys read the counts", async () => {
      const subjectKey = `test:rl:{${randomUUID()}}`;
      const req = request({ subjectKey, keyId: 1 });
      await burst(req, 91);
      const suspendedUntilMs = clock.now().getTime() + BAN.durationMs;
      expect(await subject.store.peek(req)).toMatchObject({ outcome: 'suspended', usedMinute: 60, suspendedUntilMs });
      expect(await subject.store.peek(request({ subjectKey, keyId: 2 }))).toMatchObject({ outcome: 'read', usedMinute: 60 });
      clock.set(new Date(suspendedUntilMs));
      expect(await subject.store.peek(req)).toMatchObject({ outcome: 'read', usedMinute: 0, usedDay: 60, suspendedUntilMs: 0 });
    });

    it('handles very large limits', async () => {
      const huge = Number.MAX_SAFE_INTEGER;
      const req = request({ limits: { perMinute: huge, perDay: huge } });
      expect(count(await burst(req, 20), 'admitted')).toBe(20);
      expect(await subject.store.consume(req)).toMatchObject({ outcome: 'admitted', usedMinute: 21, usedDay: 21 });
    });
  });
}
