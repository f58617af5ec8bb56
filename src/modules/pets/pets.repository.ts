import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, type Repository } from 'typeorm';
import { TransactionHost } from '../../platform/database/index.js';
import { Pet } from './entities/pet.entity.js';
import type { PetStatus } from './pet-status.js';

/** An animal as the API shows it: the columns a response needs, without `created_at`. */
export type PetRecord = Pick<Pet, 'id' | 'name' | 'categoryId' | 'status'>;

const SHOWN = { id: true, name: true, categoryId: true, status: true } as const;

/** The animals, in TypeORM's own idiom but for `create`: reads select what a response shows; writes join the request's transaction. */
@Injectable()
export class PetsRepository {
  constructor(
    @InjectRepository(Pet) private readonly pets: Repository<Pet>,
    private readonly txHost: TransactionHost,
  ) {}

  /** Up to `take` animals with an id above `after` (from the first without), ascending: one indexed seek whatever the depth. */
  findPage(after: number | undefined, take: number, status?: PetStatus): Promise<PetRecord[]> {
    return this.pets.find({
      select: SHOWN,
      where: { ...(after !== undefined && { id: MoreThan(after) }), ...(status && { status }) },
      order: { id: 'ASC' },
      take,
    });
  }

  findById(id: number): Promise<PetRecord | null> {
    return this.pets.findOne({ select: SHOWN, where: { id } });
  }

  /** The exception to the idiom: one statement, cheaper than `insert()` (docs/benchmarks.md); joins the request's transaction. */
  async create(pet: Omit<PetRecord, 'id'>): Promise<PetRecord> {
    const [{ id }] = await this.txHost.tx.query<{ id: number | string }[]>(
      'INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING id',
      [pet.name, pet.categoryId, pet.status],
    );
    return { id: Number(id), ...pet };
  }
}
