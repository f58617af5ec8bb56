import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

export type IdempotencyKeyState = 'pending' | 'completed';

/**
 * A client's Idempotency-Key (its SHA-256, never the header itself): a pending mark while the
 * first request runs, then its response. A row past `expiresAt` counts as absent.
 */
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

  @Column({ type: 'varchar', length: 16 })
  state: IdempotencyKeyState;

  /** Names the reservation that wrote the row, so a late request cannot complete or release a newer one. */
  @Column({ type: 'varchar', length: 36 })
  token: string;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  /** The response body as JSON text. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  @Column({ name: 'response_location', type: 'varchar', length: 2048, nullable: true })
  responseLocation: string | null;

  @Column({ name: 'expires_at', type: Date })
  expiresAt: Date;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
