import { setImmediate } from 'node:timers';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../common/index.js';
import { DAY_MS, LimiterStore, MINUTE_MS, type LimiterFacts, type LimiterRequest } from './limiter.store.js';

/** Settles a turn's values together at its end, as Redis answers a turn's pipelined scripts in one reply (docs/benchmarks.md). */
export class EndOfTurn {
  private readonly pending: Array<() => void> = [];

  settle<T>(value: T): Promise<T> {
    return new Promise((resolve) => {
      if (this.pending.push(() => resolve(value)) === 1) setImmediate(() => this.pending.splice(0).forEach((settle) => settle()));
    });
  }
}

/** When the address table is full, expired records are purged at most this often before a newcomer is refused. */
const FULL_PURGE_INTERVAL_MS = 1_000;

/** A subject's counts in its current minute and day, and (from a key's first refusal) its keys' strikes. */
type SubjectRecord = { minute: number; usedMinute: number; day: number; usedDay: number; keys?: Map<number, KeyStrikes> };
type KeyStrikes = { bannedUntilMs: number; strikeMinute: number; strikes: number };

type Facts = Omit<LimiterFacts, 'store'>;

/** Subjects held at most: clients with a valid key (bounded by the clients that exist), and addresses, the table a flood fills. */
export type InProcessCapacity = { clients: number; addresses: number };

/** Far above the clients one replica serves in a day (an address's cost: docs/configuration.md). */
export const DEFAULT_CLIENT_CAPACITY = 100_000;

/**
 * The limiter without Redis, and the fallback while it is out: the script's rules by the service clock, each decision atomic
 * in the process. A full address table refuses newcomers: evicting would let a flood reset a throttled guesser.
 */
export class InProcessStore extends LimiterStore {
  private readonly perf = { now: () => this.clock.now().getTime() };
  private readonly clients = new LRUCache<string, SubjectRecord>({ max: this.capacity.clients, ttlResolution: 0, perf: this.perf });
  private readonly addresses = new LRUCache<string, SubjectRecord>({ max: this.capacity.addresses, ttlResolution: 0, perf: this.perf });
  private readonly answers = new EndOfTurn();
  private lastPurgeMs = -Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly capacity: InProcessCapacity,
  ) {
    super();
  }

  get size(): InProcessCapacity {
    return { clients: this.clients.size, addresses: this.addresses.size };
  }

  consume(request: LimiterRequest): Promise<LimiterFacts> {
    const nowMs = this.clock.now().getTime();
    const table = this.tableOf(request);
    const held = table.get(request.subjectKey);
    if (held === undefined && table === this.addresses && !this.hasRoomForAddress(nowMs)) {
      return this.settle({ outcome: 'refused', usedMinute: request.limits.perMinute, usedDay: 0, nowMs, suspendedUntilMs: 0 });
    }
    return this.settle(this.decide(request, nowMs, table, held));
  }

  /** LRU's `peek`: a reading neither renews the subject's recency nor makes room for it. */
  peek(request: LimiterRequest): Promise<LimiterFacts> {
    const nowMs = this.clock.now().getTime();
    return this.settle(readingOf(standingOf(request, nowMs, this.tableOf(request).peek(request.subjectKey)), nowMs));
  }

  private settle(facts: Facts): Promise<LimiterFacts> {
    return this.answers.settle({ ...facts, store: 'in-process' });
  }

  private tableOf(request: LimiterRequest): LRUCache<string, SubjectRecord> {
    return request.keyId === undefined ? this.addresses : this.clients;
  }

  private hasRoomForAddress(nowMs: number): boolean {
    if (this.addresses.size < this.addresses.max) return true;
    if (nowMs - this.lastPurgeMs >= FULL_PURGE_INTERVAL_MS) {
      this.lastPurgeMs = nowMs;
      this.addresses.purgeStale();
    }
    return this.addresses.size < this.addresses.max;
  }

  /** The script's rules, in its order; like the script, only a decision that writes (an admission, a key's refusal) keeps a record. */
  private decide(request: LimiterRequest, nowMs: number, table: LRUCache<string, SubjectRecord>, held?: SubjectRecord): Facts {
    const { keyId, limits, ban } = request;
    const standing = standingOf(request, nowMs, held);
    const { minute, day, usedMinute, usedDay, key } = standing;
    const endOfDayMs = (day + 1) * DAY_MS;
    // Kept until `untilMs`, like the script's PEXPIREAT; -1 (no window yet) counts nothing.
    const record = (untilMs: number) => {
      const kept = held ?? { minute: -1, usedMinute: 0, day: -1, usedDay: 0 };
      table.set(request.subjectKey, kept, { ttl: untilMs - nowMs });
      return kept;
    };

    if (standing.suspended) return readingOf(standing, nowMs);

    if (usedMinute < limits.perMinute && usedDay < limits.perDay) {
      // As in the script, kept until the end of the day: another key's ban that outlasts it is forgotten at midnight.
      Object.assign(record(endOfDayMs), { minute, usedMinute: usedMinute + 1, day, usedDay: usedDay + 1 });
      return { outcome: 'admitted', usedMinute: usedMinute + 1, usedDay: usedDay + 1, nowMs, suspendedUntilMs: 0 };
    }

    if (keyId !== undefined) {
      const strikes = (key?.strikeMinute === minute ? key.strikes : 0) + 1;
      const until = strikes >= ban.threshold ? nowMs + ban.durationMs : standing.bannedUntilMs;
      (record(Math.max(endOfDayMs, until)).keys ??= new Map()).set(keyId, { bannedUntilMs: until, strikeMinute: minute, strikes });
    }
    return { outcome: 'refused', usedMinute, usedDay, nowMs, suspendedUntilMs: 0 };
  }
}

/** Where the subject stands at `nowMs`, as the script's opening reads it. */
function standingOf(request: LimiterRequest, nowMs: number, held?: SubjectRecord) {
  const minute = Math.floor(nowMs / MINUTE_MS);
  const day = Math.floor(nowMs / DAY_MS);
  const key = request.keyId === undefined ? undefined : held?.keys?.get(request.keyId);
  const bannedUntilMs = key?.bannedUntilMs ?? 0;
  const usedMinute = held?.minute === minute ? held.usedMinute : 0;
  const usedDay = held?.day === day ? held.usedDay : 0;
  return { minute, day, usedMinute, usedDay, key, bannedUntilMs, suspended: request.keyId !== undefined && bannedUntilMs > nowMs };
}

/** The facts of a standing that counts nothing: a peek's, and any decision of a suspended key. */
function readingOf({ usedMinute, usedDay, suspended, bannedUntilMs }: ReturnType<typeof standingOf>, nowMs: number): Facts {
  return { outcome: suspended ? 'suspended' : 'read', usedMinute, usedDay, nowMs, suspendedUntilMs: suspended ? bannedUntilMs : 0 };
}
