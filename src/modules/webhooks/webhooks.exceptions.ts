import { HttpStatus } from '@nestjs/common';
import { ApiError, ApiException } from '../../common/index.js';

@ApiError({ status: HttpStatus.NOT_FOUND, code: 'not_found', description: 'The requested resource could not be found' })
export class EndpointNotFoundException extends ApiException {
  constructor(what = 'No such webhook endpoint of your client.') {
    super(what);
  }
}

@ApiError({
  status: HttpStatus.CONFLICT,
  code: 'endpoint_limit_reached',
  description: 'The client already has as many webhook endpoints as allowed',
})
export class EndpointLimitReachedException extends ApiException {
  constructor(limit: number) {
    super(`A client may have at most ${limit} webhook endpoints; delete one first.`);
  }
}
