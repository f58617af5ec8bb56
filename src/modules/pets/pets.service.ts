import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DEFAULT_PAGE_SIZE, pageStart, toPage, type Page } from '../../common/index.js';
import { TransactionHost } from '../../platform/database/index.js';
import type { ListPetsQueryDto, NewPetDto } from './dto/pet.dto.js';
import { PetStatus } from './pet-status.js';
import { PetNotFoundException } from './pets.exceptions.js';
import { PetsRepository, type PetRecord } from './pets.repository.js';

/** Published with the new animal in its transaction: a listener's writes commit, or roll back, with it. */
export const PET_CREATED = 'pet.created';

export type PetCreated = PetRecord;

@Injectable()
export class PetsService {
  constructor(
    private readonly pets: PetsRepository,
    private readonly txHost: TransactionHost,
    private readonly events: EventEmitter2,
  ) {}

  /** A cursor continues only the listing of its status filter. */
  async list({ limit = DEFAULT_PAGE_SIZE, status, cursor }: ListPetsQueryDto): Promise<Page<PetRecord>> {
    const listing = { status: status ?? null };
    return toPage(await this.pets.findPage(pageStart(cursor, listing), limit + 1, status), limit, listing);
  }

  create({ name, categoryId, status = PetStatus.Available }: NewPetDto): Promise<PetRecord> {
    return this.txHost.withTransaction(async () => {
      const pet = await this.pets.create({ name, categoryId, status });
      await this.events.emitAsync(PET_CREATED, pet satisfies PetCreated);
      return pet;
    });
  }

  async get(id: number): Promise<PetRecord> {
    const pet = await this.pets.findById(id);
    if (!pet) throw new PetNotFoundException(id);
    return pet;
  }
}
