import { Injectable } from '@nestjs/common';
import { decodeCursor, encodeCursor, ValidationFailedException } from '../../common/index.js';
import { DEFAULT_PAGE_SIZE, type ListPetsQueryDto } from './dto/list-pets-query.dto.js';
import type { NewPetDto } from './dto/new-pet.dto.js';
import { MAX_ID } from './dto/pet-fields.js';
import { PetStatus } from './pet-status.js';
import { PetNotFoundException } from './pets.exceptions.js';
import { PetsRepository, type PetRecord } from './pets.repository.js';

export interface PetListPage {
  pets: PetRecord[];
  limit: number;
  /** Absent on the last page. */
  nextCursor?: string;
}

@Injectable()
export class PetsService {
  constructor(private readonly pets: PetsRepository) {}

  async list({ limit = DEFAULT_PAGE_SIZE, status, cursor }: ListPetsQueryDto): Promise<PetListPage> {
    const afterId = cursor === undefined ? 0 : this.positionOf(cursor, status);
    const page = await this.pets.findPage(afterId, limit, status);
    const last = page.pets.at(-1);
    return {
      pets: page.pets,
      limit,
      nextCursor: page.hasMore && last ? encodeCursor({ after: Number(last.id), status: status ?? null }) : undefined,
    };
  }

  create({ name, categoryId, status = PetStatus.Available }: NewPetDto): Promise<PetRecord> {
    return this.pets.create({ name, categoryId, status });
  }

  async get(id: number): Promise<PetRecord> {
    const pet = await this.pets.findById(id);
    if (!pet) throw new PetNotFoundException(id);
    return pet;
  }

  /** A cursor only continues the listing it came from. */
  private positionOf(cursor: string, status: PetStatus | undefined): number {
    const position = decodeCursor(cursor);
    const after = position?.after;
    if (typeof after !== 'number' || !Number.isSafeInteger(after) || after < 1 || after > MAX_ID) {
      throw ValidationFailedException.forField('cursor', 'cursor is malformed; use the next link of the previous page');
    }
    if ((position?.status ?? null) !== (status ?? null)) {
      throw ValidationFailedException.forField('cursor', 'cursor belongs to a listing with another status filter');
    }
    return after;
  }
}
