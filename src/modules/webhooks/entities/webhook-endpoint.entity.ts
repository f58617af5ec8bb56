import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A client's receiver of events. Its secret signs every delivery; during a rotation's overlap the previous one does too. */
@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpoint {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ name: 'client_id', type: 'bigint' })
  clientId: number;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ name: 'event_types', type: 'text', array: true })
  eventTypes: string[];

  @Column({ type: 'varchar', length: 200, default: '' })
  description: string;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 200, nullable: true })
  disabledReason: string | null;

  @Column({ type: 'varchar', length: 64 })
  secret: string;

  @Column({ name: 'previous_secret', type: 'varchar', length: 64, nullable: true })
  previousSecret: string | null;

  @Column({ name: 'previous_secret_until', type: Date, nullable: true })
  previousSecretUntil: Date | null;

  /** The first failed attempt since the last success: five days of failures disable the endpoint. */
  @Column({ name: 'failing_since', type: Date, nullable: true })
  failingSince: Date | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
