import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsString } from 'class-validator';
import { CLIENT_NAME_MAX_LENGTH } from '../../plans/index.js';
import { ClientPlanDto } from './client-plan.dto.js';

@ApiSchema({ name: 'NewClient' })
export class NewClientDto extends ClientPlanDto {
  @ApiProperty({
    type: 'string',
    minLength: 1,
    maxLength: CLIENT_NAME_MAX_LENGTH,
    description: "The paying account's name, trimmed; not only white space.",
  })
  @IsString()
  @IsDefined({ message: 'name is required' })
  name: string;
}
