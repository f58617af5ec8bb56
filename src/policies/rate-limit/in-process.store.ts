import type { Clock } from '../../common/index.js';
import { EndOfTurn } from './end-of-turn.js';
import { LimiterStore, type LimiterFacts, type LimiterRequest } from './limiter.store.js';
import { SubjectTable } from './subject-table.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
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
  expiresAtMs: number;
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
 * The limiter for a single instance (no `REDIS_URL`) and the fallback while Redis is out: the
 * decision rules of the Lua script Redis runs (limiter.script.ts), written again in TypeScript over
 * typed records and timed by the service's clock. A differential property test
 * (test/redis-limiter-differential.int-spec.ts) runs random request sequences through both and
 * holds every decision equal. Each decision is made when it is asked for, so it is atomic within
 * the process; the answers of one turn of the event loop are handed back together (`EndOfTurn`).
 *
 * Clients and anonymous addresses live in separate bounded tables, so flooding addresses can
 * never push a client's counts out. When the address table is full, a new address is refused
 * (counted nowhere) until room frees up, and the addresses already counted keep their counts:
 * evicting them instead would let a flood reset a throttled guesser. When the client table is
 * full (only with more clients than it holds), the client idle longest starts counting over.
 */
export class InProcessStore extends LimiterStore {
  private readonly clients: SubjectTable<SubjectRecord>;
  private readonly addresses: SubjectTable<SubjectRecord>;
  private readonly answers = new EndOfTurn();

  constructor(
    private readonly clock: Clock,
    capacity: InProcessCapacity,
  ) {
    super();
    this.clients = new SubjectTable(clock, capacity.clients, 'evict-least-recent');
    this.addresses = new SubjectTable(clock, capacity.addresses, 'refuse-new');
  }

  consume(request: LimiterRequest): Promise<LimiterFacts> {
    const nowMs = this.clock.now().getTime();
    const table = request.keyId === undefined ? this.addresses : this.clients;
    const held = table.get(request.subjectKey, nowMs);
    if (held === undefined && !table.hasRoom(nowMs)) {
      return this.answers.settle({ outcome: 'refused', usedMinute: request.limits.perMinute, usedDay: 0, nowMs, suspendedUntilMs: 0 });
    }
    return this.answers.settle(this.decide(request, nowMs, table, held));
  }

  /**
   * The script's rules, in its order, over the subject's record if one is `held`. Like the script,
   * only a decision that writes (an admission, a key's refusal) keeps a record.
   */
  private decide(request: LimiterRequest, nowMs: number, table: SubjectTable<SubjectRecord>, held?: SubjectRecord): LimiterFacts {
    const { keyId, limits, ban } = request;
    const minute = Math.floor(nowMs / MINUTE_MS);
    const day = Math.floor(nowMs / DAY_MS);
    const endOfDayMs = (day + 1) * DAY_MS;
    const usedMinute = held?.minute === minute ? held.usedMinute : 0;
    const usedDay = held?.day === day ? held.usedDay : 0;
    const key = keyId === undefined ? undefined : held?.keys?.get(keyId);
    const bannedUntilMs = key?.bannedUntilMs ?? 0;
    const record = () => held ?? table.add(request.subjectKey, newRecord(), nowMs);

    if (keyId !== undefined && bannedUntilMs > nowMs) {
      return { outcome: 'suspended', usedMinute, usedDay, nowMs, suspendedUntilMs: bannedUntilMs };
    }

    if (usedMinute < limits.perMinute && usedDay < limits.perDay) {
      const admitting = record();
      admitting.minute = minute;
      admitting.usedMinute = usedMinute + 1;
      admitting.day = day;
      admitting.usedDay = usedDay + 1;
      // As in the script, kept until the end of the day or this key's ban, which is over here: another
      // key's ban that outlasts the day is forgotten with the subject at midnight.
      admitting.expiresAtMs = endOfDayMs;
      return { outcome: 'admitted', usedMinute: usedMinute + 1, usedDay: usedDay + 1, nowMs, suspendedUntilMs: 0 };
    }

    if (keyId !== undefined) {
      const strikes = (key?.strikeMinute === minute ? key.strikes : 0) + 1;
      const until = strikes >= ban.threshold ? nowMs + ban.durationMs : bannedUntilMs;
      const striking = record();
      (striking.keys ??= new Map()).set(keyId, { bannedUntilMs: until, strikeMinute: minute, strikes });
      striking.expiresAtMs = Math.max(endOfDayMs, until);
    }
    return { outcome: 'refused', usedMinute, usedDay, nowMs, suspendedUntilMs: 0 };
  }

  /** Subjects held now, per kind. */
  get size(): InProcessCapacity {
    return { clients: this.clients.size, addresses: this.addresses.size };
  }

  close(): Promise<void> {
    this.clients.close();
    this.addresses.close();
    return Promise.resolve();
  }
}

function newRecord(): SubjectRecord {
  return { minute: NO_WINDOW, usedMinute: 0, day: NO_WINDOW, usedDay: 0, keys: undefined, expiresAtMs: 0 };
}
