import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { ApiException, ValidationFailedException } from './api.exception.js';
import { toApiException } from './api-exception.filter.js';

const request = (allowed: string[] = []) => ({ method: 'DELETE', path: '/v1/pets', allowedMethods: () => allowed });

describe('toApiException', () => {
  it('keeps a domain exception as it is', () => {
    const error = ValidationFailedException.forField('limit', 'too big');
    expect(toApiException(error, request())).toBe(error);
  });

  it('turns the router 404 into not_found when no method serves the path', () => {
    expect(toApiException(new NotFoundException(), request()).toBody()).toEqual({
      code: 'not_found',
      message: 'No route DELETE /v1/pets.',
      status: 404,
    });
  });

  it('turns the router 404 into 405 with Allow when other methods serve the path', () => {
    const error = toApiException(new NotFoundException(), request(['GET', 'HEAD', 'POST']));
    expect(error.toBody()).toMatchObject({ code: 'method_not_allowed', status: 405 });
    expect(error.headers).toEqual({ Allow: 'GET, HEAD, POST' });
  });

  it.each([
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    [Object.assign(new Error('query failed'), { driverError: { code: '57P01' } })],
    [new Error('Connection terminated unexpectedly')],
    [new Error('timeout exceeded when trying to connect')],
  ])('classifies %p as 503 service_unavailable', (error) => {
    expect(toApiException(error, request()).toBody()).toMatchObject({ code: 'service_unavailable', status: 503 });
  });

  it.each([
    [new BadRequestException(), 'validation_failed', 400],
    [new PayloadTooLargeException(), 'payload_too_large', 413],
    [Object.assign(new URIError('URI malformed'), { status: 400 }), 'validation_failed', 400],
    [Object.assign(new Error('unsupported'), { statusCode: 415 }), 'unsupported_media_type', 415],
  ])('maps the framework error %p by its status', (error, code, status) => {
    expect(toApiException(error, request()).toBody()).toMatchObject({ code, status });
  });

  it.each([
    [new TypeError('x is undefined')],
    ['a string'],
    [undefined],
    [{ status: 'weird' }],
    [Object.assign(new Error('syntax'), { code: '42601' })],
  ])('hides %p behind a generic 500', (error) => {
    const mapped = toApiException(error, request());
    expect(mapped).toBeInstanceOf(ApiException);
    expect(mapped.toBody()).toEqual({ code: 'internal_error', message: 'An unexpected error occurred.', status: 500 });
  });
});
