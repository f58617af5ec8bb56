import { HttpStatus } from '@nestjs/common';
import { ApiError, ApiException } from '../../common/index.js';

@ApiError({ status: HttpStatus.NOT_FOUND, code: 'not_found', description: 'The requested resource could not be found' })
export class PetNotFoundException extends ApiException {
  constructor(id: number) {
    super(`No animal with id ${id}.`);
  }
}

@ApiError({ status: HttpStatus.GONE, code: 'endpoint_removed', description: 'The operation is past its sunset' })
export class EndpointRemovedException extends ApiException {
  constructor(sunset: Date) {
    super(`GET /pets/{petId} was removed on ${sunset.toUTCString()}; use GET /pets with the status filter.`);
  }
}
