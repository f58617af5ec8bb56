import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { DeferredTransaction } from '../database/index.js';
import { Pet } from './entities/pet.entity.js';
import type { PetStatus } from './pet-status.js';

/** An animal as the API shows it: the columns a response needs, without `created_at`. */
export type PetRecord = Pick<Pet, 'id' | 'name' | 'categoryId' | 'status'>;

export interface PetPage {
  pets: PetRecord[];
  hasMore: boolean;
}

const SHOWN: ReadonlyArray<keyof PetRecord> = ['id', 'name', 'categoryId', 'status'];

/**
 * The reads are the service's hottest path, so they run three statements written once, at start,
 * in the driver's dialect (`$1` for PostgreSQL, `?` for SQLite), selecting only the columns a
 * response shows. `Repository.find` built the same SELECT again on every request and hydrated
 * entities, parsing a `created_at` no response shows: a third of the server's CPU per list request
 * in the benchmark (docs/benchmarks.md).
 */
@Injectable()
export class PetsRepository {
  private readonly sql: { page: string; pageWithStatus: string; byId: string };

  constructor(@InjectRepository(Pet) private readonly pets: Repository<Pet>) {
    const { driver } = pets.manager.dataSource;
    const param = driver.options.type === 'postgres' ? (n: number) => `$${n}` : () => '?';
    const column = (property: keyof PetRecord) => driver.escape(pets.metadata.findColumnWithPropertyName(property)!.databaseName);
    const id = column('id');
    const select = `SELECT ${SHOWN.map((property) => `${column(property)} AS ${driver.escape(property)}`).join(', ')} FROM ${driver.escape(
      pets.metadata.tableName,
    )}`;
    this.sql = {
      page: `${select} WHERE ${id} > ${param(1)} ORDER BY ${id} LIMIT ${param(2)}`,
      pageWithStatus: `${select} WHERE ${column('status')} = ${param(1)} AND ${id} > ${param(2)} ORDER BY ${id} LIMIT ${param(3)}`,
      byId: `${select} WHERE ${id} = ${param(1)}`,
    };
  }

  /**
   * Up to `limit` animals with an id above `afterId`, ascending: one indexed seek whatever the
   * depth (keyset pagination). One extra row is read to learn whether another page exists.
   */
  async findPage(afterId: number, limit: number, status?: PetStatus): Promise<PetPage> {
    const rows = status
      ? await this.pets.query<PetRecord[]>(this.sql.pageWithStatus, [status, afterId, limit + 1])
      : await this.pets.query<PetRecord[]>(this.sql.page, [afterId, limit + 1]);
    return { pets: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  async findById(id: number): Promise<PetRecord | null> {
    const [row] = await this.pets.query<PetRecord[]>(this.sql.byId, [id]);
    return row ?? null;
  }

  /**
   * One INSERT … RETURNING, atomic on its own: save()'s own transaction would add a BEGIN and a
   * COMMIT. An idempotent creation runs it in the transaction that also records its response.
   */
  async create(pet: Pick<Pet, 'name' | 'categoryId' | 'status'>): Promise<Pet> {
    const transaction = await DeferredTransaction.manager();
    const pets = transaction ? transaction.withRepository(this.pets) : this.pets;
    return pets.save(pets.create(pet), { transaction: false });
  }
}
