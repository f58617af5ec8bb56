import { Type } from 'class-transformer';
import { IsEnum, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PetStatus } from '../../../src/modules/pets/pet-status.js';

/** `GET /v1/pets?limit=&status=`, checked by the global ValidationPipe. */
export class ListPetsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @IsEnum(PetStatus)
  status?: PetStatus;
}
