import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One attempt to deliver an event to an endpoint: what the deliveries listing shows. Never the body, never a secret. */
@Entity({ name: 'webhook_attempts' })
export class WebhookAttempt {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ name: 'endpoint_id', type: 'bigint' })
  endpointId: number;

  @Column({ name: 'event_id', type: 'varchar', length: 40 })
  eventId: string;

  @Column({ name: 'event_type', type: 'varchar', length: 40 })
  eventType: string;

  @Column({ type: 'integer' })
  attempt: number;

  @Column({ name: 'attempted_at', type: Date })
  attemptedAt: Date;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  error: string | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;
}
