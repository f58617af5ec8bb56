import { Injectable } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE, pageStart, toPage, type Page } from '../../common/index.js';
import type { ListPetsQueryDto, NewPetDto } from './dto/pet.dto.js';
import { PetStatus } from './pet-status.js';
import { PetNotFoundException } from './pets.exceptions.js';
import { PetsRepository, type PetRecord } from './pets.repository.js';

@Injectable()
export class PetsService {
  constructor(private readonly pets: PetsRepository) {}

  /** A cursor continues only the listing of its status filter. */
  async list({ limit = DEFAULT_PAGE_SIZE, status, cursor }: ListPetsQueryDto): Promise<Page<PetRecord>> {
    const listing = { status: status ?? null };
    return toPage(await this.pets.findPage(pageStart(cursor, listing), limit + 1, status), limit, listing);
  }

  create({ name, categoryId, status = PetStatus.Available }: NewPetDto): Promise<PetRecord> {
    return this.pets.create({ name, categoryId, status });
  }

  async get(id: number): Promise<PetRecord> {
    const pet = await this.pets.findById(id);
    if (!pet) throw new PetNotFoundException(id);
    return pet;
  }
}
