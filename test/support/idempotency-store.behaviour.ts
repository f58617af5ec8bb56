import { createHash, randomInt, randomUUID } from 'node:crypto';
import type {
  IdempotencyScope,
  IdempotencyStore,
  IdempotencyTtl,
  StoredResponse,
} from '../../src/policies/idempotency/idempotency.store.js';

/**
 * Short lifetimes, so a store that expires by real time (Redis) can be checked in a test; a
 * store on a fake clock does not care how long they are.
 */
export const BEHAVIOUR_TTL: IdempotencyTtl = { pendingMs: 400, completedMs: 1_500 };

export interface IdempotencyStoreUnderTest {
  store: IdempotencyStore;
  /** Lets `ms` pass for the store: moves its fake clock, or waits (Redis expires by its own time). */
  elapse: (ms: number) => Promise<void>;
  close: () => Promise<void>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const RESPONSE: StoredResponse = {
  status: 201,
  body: { id: 9007199254740991, name: 'Rëx 🐕', categoryId: 1, status: 'available' },
  location: 'http://api.example.test/v1/pets/9007199254740991',
};

/**
 * The idempotency store's semantics, checked the same way on every store (database and Redis):
 * atomic reservation, replay, release, per-client scope and bounded lifetimes.
 */
export function describeIdempotencyStore(name: string, open: (ttl: IdempotencyTtl) => Promise<IdempotencyStoreUnderTest>): void {
  describe(`${name}: idempotency store semantics`, () => {
    let subject: IdempotencyStoreUnderTest;
    // Every test uses its own clients and keys, so stores that persist need no cleaning.
    const scope = (overrides: Partial<IdempotencyScope> = {}): IdempotencyScope => ({
      clientId: randomInt(1, 2 ** 40),
      keyHash: sha256(randomUUID()),
      ...overrides,
    });
    const fingerprint = () => sha256(randomUUID());
    const reserved = async (key: IdempotencyScope, fp: string) => {
      const lookup = await subject.store.reserve(key, fp);
      if (lookup.state !== 'reserved') throw new Error(`expected a reservation, got ${lookup.state}`);
      return lookup.reservation;
    };

    beforeEach(async () => {
      subject = await open(BEHAVIOUR_TTL);
    });
    afterEach(() => subject.close());

    it('reserves an unknown key, then reports it pending with the fingerprint of its body', async () => {
      const key = scope();
      const fp = fingerprint();
      await reserved(key, fp);
      await expect(subject.store.reserve(key, fp)).resolves.toEqual({ state: 'pending', fingerprint: fp });
      await expect(subject.store.reserve(key, fingerprint())).resolves.toEqual({ state: 'pending', fingerprint: fp });
    });

    it('replays the completed response (status, body, Location) exactly, whatever the body of the retry', async () => {
      const key = scope();
      const fp = fingerprint();
      await (await reserved(key, fp)).complete(RESPONSE);
      await expect(subject.store.reserve(key, fp)).resolves.toEqual({ state: 'completed', fingerprint: fp, response: RESPONSE });
      await expect(subject.store.reserve(key, fingerprint())).resolves.toEqual({ state: 'completed', fingerprint: fp, response: RESPONSE });
    });

    it('keeps a response without Location without one', async () => {
      const key = scope();
      const fp = fingerprint();
      await (await reserved(key, fp)).complete({ status: 201, body: null });
      await expect(subject.store.reserve(key, fp)).resolves.toEqual({
        state: 'completed',
        fingerprint: fp,
        response: { status: 201, body: null },
      });
    });

    it('frees a released key for the next request, even with another body', async () => {
      const key = scope();
      await (await reserved(key, fingerprint())).release();
      const fp = fingerprint();
      await (await reserved(key, fp)).complete(RESPONSE);
      await expect(subject.store.reserve(key, fp)).resolves.toMatchObject({ state: 'completed', fingerprint: fp });
    });

    it('does not let a release undo a completed record', async () => {
      const key = scope();
      const fp = fingerprint();
      const reservation = await reserved(key, fp);
      await reservation.complete(RESPONSE);
      await reservation.release();
      await expect(subject.store.reserve(key, fp)).resolves.toMatchObject({ state: 'completed' });
    });

    it('keeps keys per client: the same key of another client is independent', async () => {
      const key = scope();
      const fp = fingerprint();
      await (await reserved(key, fp)).complete(RESPONSE);
      const other = scope({ keyHash: key.keyHash });
      await expect(subject.store.reserve(other, fp)).resolves.toMatchObject({ state: 'reserved' });
    });

    it('gives exactly one of 20 concurrent reservations of one key the key', async () => {
      const key = scope();
      const fp = fingerprint();
      const lookups = await Promise.all(Array.from({ length: 20 }, () => subject.store.reserve(key, fp)));
      expect(lookups.filter((lookup) => lookup.state === 'reserved')).toHaveLength(1);
      expect(lookups.filter((lookup) => lookup.state === 'pending')).toHaveLength(19);
    });

    it('lets a pending mark lapse after its lifetime, and the late request then neither releases nor overwrites the new one', async () => {
      const key = scope();
      const first = await reserved(key, fingerprint());
      await subject.elapse(BEHAVIOUR_TTL.pendingMs + 100);
      const fp = fingerprint();
      const second = await reserved(key, fp);
      await first.release();
      await expect(subject.store.reserve(key, fp)).resolves.toEqual({ state: 'pending', fingerprint: fp });
      await first.complete({ status: 201, body: 'late' });
      await expect(subject.store.reserve(key, fp)).resolves.toEqual({ state: 'pending', fingerprint: fp });
      await second.complete(RESPONSE);
      await expect(subject.store.reserve(key, fp)).resolves.toEqual({ state: 'completed', fingerprint: fp, response: RESPONSE });
    });

    it('replays a completed response for its lifetime, then treats the key as new', async () => {
      const key = scope();
      const fp = fingerprint();
      await (await reserved(key, fp)).complete(RESPONSE);
      await subject.elapse(BEHAVIOUR_TTL.completedMs / 2);
      await expect(subject.store.reserve(key, fp)).resolves.toMatchObject({ state: 'completed' });
      await subject.elapse(BEHAVIOUR_TTL.completedMs / 2 + 100);
      await expect(subject.store.reserve(key, fingerprint())).resolves.toMatchObject({ state: 'reserved' });
    });
  });
}
