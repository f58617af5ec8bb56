import type { PetDto } from './dto/pet.dto.js';
import type { PetRecord } from './pets.repository.js';

export function toPetResponse(pet: PetRecord): PetDto {
  return { id: Number(pet.id), name: pet.name, categoryId: Number(pet.categoryId), status: pet.status };
}
