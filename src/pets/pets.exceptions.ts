import { HttpStatus } from '@nestjs/common';
import { ApiException, ErrorCode } from '../common/index.js';

export class PetNotFoundException extends ApiException {
  constructor(id: number) {
    super(ErrorCode.NotFound, HttpStatus.NOT_FOUND, `No animal with id ${id}.`);
  }
}

export class EndpointRemovedException extends ApiException {
  constructor(sunset: Date) {
    super(
      ErrorCode.EndpointRemoved,
      HttpStatus.GONE,
      `GET /pets/{petId} was removed on ${sunset.toUTCString()}; use GET /pets with the status filter.`,
    );
  }
}
