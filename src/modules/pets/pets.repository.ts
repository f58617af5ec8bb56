import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { TransactionHost } from '../../platform/database/index.js';
import type { Repository } from 'typeorm';
import { Pet } from './entities/pet.entity.js';
import type { PetStatus } from './pet-status.js';

/** An animal as the API shows it: the columns a response needs, without `created_at`. */
export type PetRecord = Pick<Pet, 'id' | 'name' | 'categoryId' | 'status'>;

export interface PetPage {
  pets: PetRecord[];
  hasMore: boolean;
}

const SHOWN: ReadonlyArray<keyof PetRecord> = ['id', 'name', 'categoryId', 'status'];
const INSERTED = ['name', 'categoryId', 'status'] as const;

/**
 * Reads and the creation are the service's hot paths, so they run four statements written once, at
 * start, in the driver's dialect (`$1` for PostgreSQL, `?` for SQLite), reading back only the
 * columns a response shows. `Repository.find` built the same SELECT again on every request and
 * hydrated entities, parsing a `created_at` no response shows: a third of the server's CPU per list
 * request in the benchmark (docs/benchmarks.md); `save()` likewise rebuilt its INSERT, ran the
 * entity listeners and read the row back.
 */
@Injectable()
export class PetsRepository {
  private readonly sql: { page: string; pageWithStatus: string; byId: string; insert: string };

  constructor(
    @InjectRepository(Pet) private readonly pets: Repository<Pet>,
    private readonly txHost: TransactionHost,
  ) {
    const { driver } = pets.manager.dataSource;
    const param = driver.options.type === 'postgres' ? (n: number) => `$${n}` : () => '?';
    const column = (property: keyof PetRecord) => driver.escape(pets.metadata.findColumnWithPropertyName(property)!.databaseName);
    const id = column('id');
    const table = driver.escape(pets.metadata.tableName);
    const shown = SHOWN.map((property) => `${column(property)} AS ${driver.escape(property)}`).join(', ');
    const select = `SELECT ${shown} FROM ${table}`;
    this.sql = {
      page: `${select} WHERE ${id} > ${param(1)} ORDER BY ${id} LIMIT ${param(2)}`,
      pageWithStatus: `${select} WHERE ${column('status')} = ${param(1)} AND ${id} > ${param(2)} ORDER BY ${id} LIMIT ${param(3)}`,
      byId: `${select} WHERE ${id} = ${param(1)}`,
      insert: `INSERT INTO ${table} (${INSERTED.map(column).join(', ')}) VALUES (${INSERTED.map((_, i) => param(i + 1)).join(', ')}) RETURNING ${shown}`,
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
   * One INSERT … RETURNING, atomic on its own (`created_at` takes its column default). Like every
   * write, it goes through `txHost.tx`, so it joins the transaction of an idempotent creation.
   */
  async create(pet: Pick<Pet, (typeof INSERTED)[number]>): Promise<PetRecord> {
    const [row] = await this.txHost.tx.query<PetRecord[]>(
      this.sql.insert,
      INSERTED.map((property) => pet[property]),
    );
    return row;
  }
}
