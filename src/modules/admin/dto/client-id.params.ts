import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ToInteger } from '../../../common/index.js';
import { ID } from './schema-fields.js';

// The pipe reports the first failing check, registered bottom-up: the type check goes last, so `abc` is told so.
export class ClientIdParams {
  @ApiProperty({ ...ID, description: "The client's id." })
  @ToInteger()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  @IsInt({ message: 'clientId must be an integer' })
  clientId: number;
}

export class ClientKeyParams extends ClientIdParams {
  @ApiProperty({ ...ID, description: "The id of one of the client's keys." })
  @ToInteger()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  @IsInt({ message: 'keyId must be an integer' })
  keyId: number;
}
