import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'ErrorDetail' })
export class ErrorDetailDto {
  @ApiProperty({ type: 'string', maxLength: 200, description: 'The field, parameter or header at fault.' })
  field: string;

  @ApiProperty({ type: 'string', maxLength: 1000 })
  message: string;
}

@ApiSchema({ name: 'Error' })
export class ErrorDto {
  // The description is completed by describeErrorCodes when the document is built, once every module has declared its errors.
  @ApiProperty({ type: 'string', maxLength: 64, pattern: '^[a-z][a-z0-9_]*$', description: 'Machine-readable error code.' })
  code: string;

  @ApiProperty({ type: 'string', maxLength: 1000, description: 'Human-readable description.' })
  message: string;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 400, maximum: 599, description: 'The HTTP status code.' })
  status: number;

  @ApiProperty({ type: [ErrorDetailDto], required: false, maxItems: 100, description: 'Which values were invalid (`validation_failed`).' })
  details?: ErrorDetailDto[];
}
