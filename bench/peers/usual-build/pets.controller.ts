import { Controller, Get, Query } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Pet } from '../../../src/modules/pets/entities/pet.entity.js';
import { ListPetsQuery } from './list-pets.query.js';

@Controller('v1/pets')
export class PetsController {
  constructor(@InjectRepository(Pet) private readonly pets: Repository<Pet>) {}

  /** The first page: ascending id, 20 animals unless `limit` says otherwise, the fields a response shows. */
  @Get()
  list(@Query() query: ListPetsQuery): Promise<Pick<Pet, 'id' | 'name' | 'categoryId' | 'status'>[]> {
    return this.pets.find({
      select: { id: true, name: true, categoryId: true, status: true },
      where: query.status ? { status: query.status } : {},
      order: { id: 'ASC' },
      take: query.limit ?? 20,
    });
  }
}
