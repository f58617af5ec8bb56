import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { KENNEL_NAME, PLACES } from './kennel-fields.js';

@ApiSchema({ name: 'NewKennel' })
export class NewKennelDto {
  @ApiProperty(KENNEL_NAME)
  @IsDefined()
  @IsString()
  @MaxLength(100)
  @Matches(/\S/)
  name: string;

  @ApiProperty(PLACES)
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(100)
  places: number;
}
