import { LRUCache } from 'lru-cache';
import type { Clock } from '../../common/index.js';
import { EndOfTurn } from './end-of-turn.js';
import { LimiterStore, type LimiterFacts, type LimiterRequest } from './limiter.store.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** When the address table is full, expired records are purged at most this often before a newcomer is refused. */
const FULL_PURGE_INTERVAL_MS = 1_000;
/** The window of a record that has counted no admitted request (time never runs before 1970). */
const NO_WINDOW = -1;

/** One key's standing within its subject: its suspension end and its refusals in `strikeMinute`. */
interface KeyStrikes {
  bannedUntilMs: number;
  strikeMinute: number;
  strikes: number;
}

/** A subject's counts: the current minute and day with what they admitted, and its keys' strikes. */
interface SubjectRecord {
  minute: number;
  usedMinute: number;
  day: number;
  usedDay: number;
  /** Made at a key's first refusal: an anonymous address never has one, which keeps its record small. */
  keys?: Map<number, KeyStrikes>;
}

/** How many subjects the in-process limiter holds at most, per kind. */
export interface InProcessCapacity {
  /** Clients with a valid key: bounded by the clients that exist, so a flood cannot reach it. */
  clients: number;
  /** Addresses of callers without a valid key: the table a flood of addresses fills. */
  addresses: number;
}

/** Far above the clients one replica serves in a day; an address costs about 290 bytes. */
export const DEFAULT_CLIENT_CAPACITY = 100_000;

/**
 * The limiter without Redis, and the fallback while it is out: the script's rules in TypeScript, by
 * the service clock, each decision atomic in the process (a turn's answers handed back together).
 * Clients and addresses live in separate LRU tables; a full address table refuses newcomers rather
 * than evict, which would let a flood of addresses reset a throttled guesser.
 */
export class InProcessStore extends LimiterStore {
  private readonly clients: LRUCache<string, SubjectRecord>;
  private readonly addresses: LRUCache<string, SubjectRecord>;
  private readonly answers = new EndOfTurn();
  private lastPurgeMs = -Infinity;

  constructor(
    private readonly clock: Clock,
    capacity: InProcessCapacity,
  ) {
    super();
    const perf = { now: () => clock.now().getTime() };
    this.clients = new LRUCache({ max: capacity.clients, ttlResolution: 0, perf });
    this.addresses = new LRUCache({ max: capacity.addresses, ttlResolution: 0, perf });
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

  private settle(facts: Omit<LimiterFacts, 'store'>): Promise<LimiterFacts> {
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

  /**
   * The script's rules, in its order, over the subject's record if one is `held`. Like the script,
   * only a decision that writes (an admission, a key's refusal) keeps a record.
   */
  private decide(
    request: LimiterRequest,
    nowMs: number,
    table: LRUCache<string, SubjectRecord>,
    held?: SubjectRecord,
  ): Omit<LimiterFacts, 'store'> {
    const { keyId, limits, ban } = request;
    const standing = standingOf(request, nowMs, held);
    const { minute, day, usedMinute, usedDay, key, bannedUntilMs } = standing;
    const endOfDayMs = (day + 1) * DAY_MS;
    /** The subject's record, kept until `untilMs` (like the script's PEXPIREAT). */
    const record = (untilMs: number) => {
      const kept = held ?? newRecord();
      table.set(request.subjectKey, kept, { ttl: untilMs - nowMs });
      return kept;
    };

    if (standing.suspended) return readingOf(standing, nowMs);

    if (usedMinute < limits.perMinute && usedDay < limits.perDay) {
      // As in the script, kept until the end of the day or this key's ban, which is over here: another
      // key's ban that outlasts the day is forgotten with the subject at midnight.
      Object.assign(record(endOfDayMs), { minute, usedMinute: usedMinute + 1, day, usedDay: usedDay + 1 });
      return { outcome: 'admitted', usedMinute: usedMinute + 1, usedDay: usedDay + 1, nowMs, suspendedUntilMs: 0 };
    }

    if (keyId !== undefined) {
      const strikes = (key?.strikeMinute === minute ? key.strikes : 0) + 1;
      const until = strikes >= ban.threshold ? nowMs + ban.durationMs : bannedUntilMs;
      const striking = record(Math.max(endOfDayMs, until));
      (striking.keys ??= new Map()).set(keyId, { bannedUntilMs: until, strikeMinute: minute, strikes });
    }
    return { outcome: 'refused', usedMinute, usedDay, nowMs, suspendedUntilMs: 0 };
  }

  /** Subjects held now, per kind. */
  get size(): InProcessCapacity {
    return { clients: this.clients.size, addresses: this.addresses.size };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Where the subject stands at `nowMs`, as the script's opening reads it. */
function standingOf(request: LimiterRequest, nowMs: number, held?: SubjectRecord) {
  const minute = Math.floor(nowMs / MINUTE_MS);
  const day = Math.floor(nowMs / DAY_MS);
  const key = request.keyId === undefined ? undefined : held?.keys?.get(request.keyId);
  const bannedUntilMs = key?.bannedUntilMs ?? 0;
  return {
    minute,
    day,
    usedMinute: held?.minute === minute ? held.usedMinute : 0,
    usedDay: held?.day === day ? held.usedDay : 0,
    key,
    bannedUntilMs,
    suspended: request.keyId !== undefined && bannedUntilMs > nowMs,
  };
}

/** The facts of a standing that counts nothing: a peek's, and any decision of a suspended key. */
function readingOf(standing: ReturnType<typeof standingOf>, nowMs: number): Omit<LimiterFacts, 'store'> {
  const { usedMinute, usedDay, suspended, bannedUntilMs } = standing;
  return { outcome: suspended ? 'suspended' : 'read', usedMinute, usedDay, nowMs, suspendedUntilMs: suspended ? bannedUntilMs : 0 };
}

function newRecord(): SubjectRecord {
  return { minute: NO_WINDOW, usedMinute: 0, day: NO_WINDOW, usedDay: 0, keys: undefined };
}
