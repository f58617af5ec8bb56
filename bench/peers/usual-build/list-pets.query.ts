import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;

/** `GET /v1/pets?limit=&status=`, checked by the global ValidationPipe. */
export class ListPetsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @IsIn(PET_STATUSES)
  status?: (typeof PET_STATUSES)[number];
}
