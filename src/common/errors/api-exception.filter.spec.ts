import { jest } from '@jest/globals';
import { HttpStatus, Logger, type ArgumentsHost } from '@nestjs/common';
import { ApiExceptionFilter } from './api-exception.filter.js';
import { ApiError } from './api-error.decorator.js';
import { ApiException } from './api.exception.js';

@ApiError({ status: HttpStatus.UNAUTHORIZED, code: 'invalid_api_key', description: 'Invalid API key' })
class InvalidKeyException extends ApiException {}

function host(headersSent = false) {
  const response = {
    headersSent,
    status: jest.fn().mockReturnThis(),
    set: jest.fn().mockReturnThis(),
    json: jest.fn().mockReturnThis(),
    destroy: jest.fn(),
  };
  const request = { method: 'GET', originalUrl: '/v1/pets?limit=1', get: () => undefined, app: { router: { stack: [] } } };
  const argumentsHost = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }) } as unknown as ArgumentsHost;
  return { response, argumentsHost };
}

describe('ApiExceptionFilter', () => {
  const filter = new ApiExceptionFilter();

  afterEach(() => jest.restoreAllMocks());

  it('writes the Error object with its status and headers', () => {
    const { response, argumentsHost } = host();
    filter.catch(new InvalidKeyException('bad key', { headers: { 'WWW-Authenticate': 'Bearer realm="pets"' } }), argumentsHost);
    expect(response.status).toHaveBeenCalledWith(401);
    expect(response.set).toHaveBeenCalledWith({ 'WWW-Authenticate': 'Bearer realm="pets"' });
    expect(response.json).toHaveBeenCalledWith({ code: 'invalid_api_key', message: 'bad key', status: 401 });
  });

  it('logs the detail of an unexpected error and sends none of it', () => {
    const log = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { response, argumentsHost } = host();
    filter.catch(new Error('secret detail'), argumentsHost);
    expect(response.json).toHaveBeenCalledWith({ code: 'internal_error', message: 'An unexpected error occurred.', status: 500 });
    expect(log).toHaveBeenCalledWith(
      expect.stringContaining('GET /v1/pets failed with internal_error'),
      expect.stringContaining('secret detail'),
    );
  });

  it('closes the connection when the response has already started', () => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { response, argumentsHost } = host(true);
    filter.catch(new Error('late'), argumentsHost);
    expect(response.destroy).toHaveBeenCalled();
    expect(response.json).not.toHaveBeenCalled();
  });
});
