import type { Clock } from '../../common/index.js';

/** A record that says until when it is kept: from that instant on the table has forgotten it. */
export interface Expiring {
  expiresAtMs: number;
}

const SWEEP_INTERVAL_MS = 60_000;
/** When full, expired records are swept at most this often before the table says it has no room. */
const FULL_SWEEP_INTERVAL_MS = 1_000;

/**
 * What a full table does with a subject it has no room for: `evict-least-recent` drops the record
 * used longest ago (its counts start over); `refuse-new` keeps every record it has and says so in
 * `hasRoom`, so the caller refuses the newcomer and nobody's counts are reset.
 */
export type WhenFull = 'evict-least-recent' | 'refuse-new';

/**
 * The in-process limiter's records, one per subject, in this process's memory: each forgotten at
 * its `expiresAtMs` by the instant the caller passes, with a periodic sweep of expired ones by the
 * service clock. At most `capacity` records, so a flood of distinct subjects cannot grow memory
 * without bound.
 */
export class SubjectTable<R extends Expiring> {
  private readonly records = new Map<string, R>();
  private readonly sweeper = setInterval(() => this.sweep(this.clock.now().getTime()), SWEEP_INTERVAL_MS).unref();
  private lastSweepMs = -Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly capacity: number,
    private readonly whenFull: WhenFull,
  ) {}

  get size(): number {
    return this.records.size;
  }

  /** The subject's record if it has not expired at `nowMs`, moved to the most recently used end. */
  get(subject: string, nowMs: number): R | undefined {
    const record = this.records.get(subject);
    if (record === undefined) return undefined;
    this.records.delete(subject);
    if (record.expiresAtMs <= nowMs) return undefined;
    this.records.set(subject, record);
    return record;
  }

  /** False when the table refuses new subjects and is full (after sweeping, at most once a second). */
  hasRoom(nowMs: number): boolean {
    return this.whenFull !== 'refuse-new' || this.makeRoom(nowMs);
  }

  /** Adds a subject's record, first evicting the one used longest ago when the table is full. */
  add(subject: string, record: R, nowMs: number): R {
    if (!this.makeRoom(nowMs)) this.records.delete(this.records.keys().next().value as string);
    this.records.set(subject, record);
    return record;
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private makeRoom(nowMs: number): boolean {
    if (this.records.size < this.capacity) return true;
    if (nowMs - this.lastSweepMs >= FULL_SWEEP_INTERVAL_MS) this.sweep(nowMs);
    return this.records.size < this.capacity;
  }

  private sweep(nowMs: number): void {
    this.lastSweepMs = nowMs;
    for (const [subject, record] of this.records) if (record.expiresAtMs <= nowMs) this.records.delete(subject);
  }
}
