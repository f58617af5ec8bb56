import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One change to clients, plans, keys or admin tokens: never a key, a hash or a token. */
@Entity({ name: 'audit_events' })
export class AuditEvent {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ name: 'occurred_at', type: Date })
  occurredAt: Date;

  /** `cli`, `admin-token:<id>` or `key:<id>`. */
  @Column({ type: 'varchar', length: 40 })
  actor: string;

  @Column({ type: 'varchar', length: 40 })
  action: string;

  @Column({ name: 'client_id', type: 'bigint', nullable: true })
  clientId: number | null;

  @Column({ name: 'key_id', type: 'bigint', nullable: true })
  keyId: number | null;

  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId: string | null;

  /** The non-secret facts of a change (a plan change's old and new plan, a roll's successor). */
  @Column({ type: 'simple-json' })
  details: Readonly<Record<string, unknown>>;
}
