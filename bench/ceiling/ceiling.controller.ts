import { Controller, Get } from '@nestjs/common';
import { PETS, type CeilingPet } from './pets.js';

@Controller('v1/pets')
export class CeilingController {
  @Get()
  list(): readonly CeilingPet[] {
    return PETS;
  }
}
