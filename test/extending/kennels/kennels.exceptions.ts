import { HttpStatus } from '@nestjs/common';
import { ApiError, ApiException } from '../../../src/common/index.js';

@ApiError({ status: HttpStatus.NOT_FOUND, code: 'kennel_not_found', description: 'No kennel has this id' })
export class KennelNotFoundException extends ApiException {
  constructor(id: number) {
    super(`No kennel with id ${id}.`);
  }
}
