import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

/** The service's `clients` table: the plan, and the limits of an `enterprise` client. */
@Entity({ name: 'clients' })
export class Client {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ type: 'varchar', length: 32 })
  plan: string;

  @Column({ name: 'per_minute_limit', type: 'bigint', nullable: true })
  perMinuteLimit: number | null;

  @Column({ name: 'per_day_limit', type: 'bigint', nullable: true })
  perDayLimit: number | null;
}

/** The service's `api_keys` table: a key is found by the SHA-256 of its text. */
@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash: string;

  @Column({ name: 'expires_at', type: Date, nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'revoked_at', type: Date, nullable: true })
  revokedAt: Date | null;

  @ManyToOne(() => Client, { eager: true, nullable: false })
  @JoinColumn({ name: 'client_id' })
  client: Client;
}

/** The service's `pets` table, mapped to the columns a response shows. */
@Entity({ name: 'pets' })
export class Pet {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'category_id', type: 'bigint' })
  categoryId: number;

  @Column({ type: 'varchar', length: 16 })
  status: string;
}
