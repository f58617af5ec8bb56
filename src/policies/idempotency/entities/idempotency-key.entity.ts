import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** The first response to a client's Idempotency-Key (by its SHA-256), replayed to retries until `expiresAt`. */
@Entity({ name: 'idempotency_keys' })
@Unique('UQ_idempotency_keys_client_key', ['clientId', 'keyHash'])
export class IdempotencyKey {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ name: 'client_id', type: 'bigint' })
  clientId: number;

  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash: string;

  /** SHA-256 of the canonical JSON of the body. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  @Column({ name: 'response_status', type: 'integer' })
  responseStatus: number;

  @Column({ name: 'response_body', type: 'text' })
  responseBody: string;

  @Column({ name: 'response_location', type: 'varchar', length: 2048, nullable: true })
  responseLocation: string | null;

  @Column({ name: 'expires_at', type: Date })
  expiresAt: Date;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
