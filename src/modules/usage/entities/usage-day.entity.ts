import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What the limiter decided for one key of a client on one UTC day, summed over every replica's flushes. */
@Entity({ name: 'usage_days' })
export class UsageDay {
  @PrimaryColumn({ name: 'client_id', type: 'bigint' })
  clientId: number;

  /** `YYYY-MM-DD`, the UTC day. */
  @PrimaryColumn({ type: 'date' })
  day: string;

  @PrimaryColumn({ name: 'key_id', type: 'bigint' })
  keyId: number;

  @Column({ type: 'bigint', default: 0 })
  admitted: number;

  /** Answered 429: over the quota, or the key suspended. */
  @Column({ type: 'bigint', default: 0 })
  refused: number;
}
