import { HttpStatus } from '@nestjs/common';
import { ApiError, ApiException } from '../../common/index.js';

@ApiError({ status: HttpStatus.NOT_FOUND, code: 'not_found', description: 'The requested resource could not be found' })
export class KeyNotFoundException extends ApiException {
  constructor() {
    super('No such key among your live keys.');
  }
}

@ApiError({ status: HttpStatus.CONFLICT, code: 'key_limit_reached', description: 'The client already has as many live keys as allowed' })
export class KeyLimitReachedException extends ApiException {
  constructor(limit: number) {
    super(`A client may have at most ${limit} live keys; revoke one first.`);
  }
}
