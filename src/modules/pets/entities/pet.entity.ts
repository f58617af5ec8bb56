import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { PetStatus } from '../pet-status.js';

@Entity({ name: 'pets' })
export class Pet {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'category_id', type: 'bigint' })
  categoryId: number;

  @Column({ type: 'varchar', length: 16 })
  status: PetStatus;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
