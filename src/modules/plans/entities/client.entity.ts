import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CLIENT_NAME_MAX_LENGTH } from '../plan-catalogue.js';

/** A paying account. Its keys share its quota; its plan decides the limits. */
@Entity({ name: 'clients' })
export class Client {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ type: 'varchar', length: CLIENT_NAME_MAX_LENGTH })
  name: string;

  @Column({ type: 'varchar', length: 32 })
  plan: string;

  @Column({ name: 'per_minute_limit', type: 'bigint', nullable: true })
  perMinuteLimit: number | null;

  @Column({ name: 'per_day_limit', type: 'bigint', nullable: true })
  perDayLimit: number | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
