import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';

export class NewKennelDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 50 })
  @IsString()
  @Length(1, 50)
  name: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 20 })
  @IsInt()
  @Min(1)
  @Max(20)
  places: number;
}
