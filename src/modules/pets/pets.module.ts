import { Module, RequestMethod, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Pet } from './entities/pet.entity.js';
import { GetPetDeprecationMiddleware } from './get-pet-deprecation.middleware.js';
import { PetsController } from './pets.controller.js';
import { PetsOpenApi } from './pets.openapi.js';
import { PetsRepository } from './pets.repository.js';
import { PetsService } from './pets.service.js';
import { ModuleParts } from '../../common/index.js';
import { petsConfig } from './pets.config.js';
import { EndpointRemovedException, PetNotFoundException } from './pets.exceptions.js';

@ModuleParts({
  config: [petsConfig],
  scopes: [
    { name: 'pets:read', description: 'List and read animals (`listPets`, `getPet`).', byDefault: true },
    { name: 'pets:write', description: 'Add animals (`createPet`).', byDefault: true },
  ],
  errors: [PetNotFoundException, EndpointRemovedException],
})
@Module({
  imports: [TypeOrmModule.forFeature([Pet])],
  controllers: [PetsController],
  providers: [PetsRepository, PetsService, PetsOpenApi],
})
export class PetsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(GetPetDeprecationMiddleware).forRoutes({ path: 'pets/:petId', method: RequestMethod.GET });
  }
}
