import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { OmittableProperty } from '../../../common/index.js';

export const MAX_OVERLAP_SECONDS = 86_400;
export const DEFAULT_OVERLAP_SECONDS = 3_600;

@ApiSchema({ name: 'RollApiKey' })
export class RollApiKeyDto {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: MAX_OVERLAP_SECONDS,
    default: DEFAULT_OVERLAP_SECONDS,
    required: false,
    description: 'Seconds the old key keeps working, never beyond its own expiry.',
  })
  @IsInt()
  @Min(0)
  @Max(MAX_OVERLAP_SECONDS)
  @OmittableProperty()
  overlapSeconds?: number;
}
