import { jest } from '@jest/globals';
import { Logger, type CallHandler, type ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { lastValueFrom, of, throwError } from 'rxjs';
import { setPrincipal, ValidationFailedException } from '../../common/index.js';
import type { DatabaseIdempotencyStore } from './database-idempotency.store.js';
import { bodyFingerprint } from './idempotency-key.js';
import { IdempotencyConflictException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import type { IdempotencyLookup, IdempotencyStore, Reservation } from './idempotency.store.js';

const BODY = { name: 'Rex', categoryId: 1 };
const PET = { id: 5, name: 'Rex', categoryId: 1, status: 'available' };
const LOCATION = 'http://localhost/v1/pets/5';

function http(headers: Record<string, string>, body: unknown = BODY) {
  const request = { headers, body } as never;
  setPrincipal(request, { keyId: 3, clientId: 7 });
  const responseHeaders = new Map<string, unknown>();
  const response = {
    statusCode: 201,
    status: jest.fn((status: number) => (response.statusCode = status)),
    setHeader: jest.fn((name: string, value: unknown) => responseHeaders.set(name.toLowerCase(), value)),
    getHeader: (name: string) => responseHeaders.get(name.toLowerCase()),
  };
  const ctx = {
    getHandler: () => undefined,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ExecutionContext;
  return { ctx, response };
}

describe('IdempotencyInterceptor', () => {
  const reserve = jest.fn<IdempotencyStore['reserve']>();
  // The handlers here write nothing, so the creation's transaction never begins: the database
  // side is covered by test/idempotency/idempotency.e2e-spec.ts and the Redis suites.
  const interceptor = new IdempotencyInterceptor(
    { reserve } as unknown as IdempotencyStore,
    { dataSource: {} } as DatabaseIdempotencyStore,
    { get: () => true } as unknown as Reflector,
  );
  const reservation = { token: 'token', complete: jest.fn<Reservation['complete']>(), release: jest.fn<Reservation['release']>() };
  const handler = jest.fn<CallHandler['handle']>();
  const next: CallHandler = { handle: handler };
  const run = async (ctx: ExecutionContext) => lastValueFrom(await interceptor.intercept(ctx, next));

  beforeEach(() => {
    jest.restoreAllMocks();
    jest.resetAllMocks();
    reservation.complete.mockResolvedValue();
    reservation.release.mockResolvedValue();
  });

  it('passes a request without the header straight through', async () => {
    handler.mockReturnValue(of(PET));
    await expect(run(http({}).ctx)).resolves.toEqual(PET);
    expect(reserve).not.toHaveBeenCalled();
  });

  it('refuses an invalid header before touching the store', async () => {
    await expect(interceptor.intercept(http({ 'idempotency-key': '' }).ctx, next)).rejects.toBeInstanceOf(ValidationFailedException);
    expect(reserve).not.toHaveBeenCalled();
  });

  it('reserves under the client and the key hash, then stores the 201 with its Location', async () => {
    reserve.mockResolvedValue({ state: 'reserved', reservation });
    const { ctx, response } = http({ 'idempotency-key': 'abc' });
    handler.mockImplementation(() => {
      response.setHeader('Location', LOCATION);
      return of(PET);
    });
    await expect(run(ctx)).resolves.toEqual(PET);
    expect(reserve).toHaveBeenCalledWith(
      { clientId: 7, keyHash: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' },
      bodyFingerprint(BODY),
    );
    expect(reservation.complete).toHaveBeenCalledWith({ status: 201, body: PET, location: LOCATION });
    expect(reservation.release).not.toHaveBeenCalled();
  });

  it('releases the key and rethrows when the handler fails', async () => {
    reserve.mockResolvedValue({ state: 'reserved', reservation });
    const failure = new Error('validation');
    handler.mockReturnValue(throwError(() => failure));
    await expect(run(http({ 'idempotency-key': 'abc' }).ctx)).rejects.toBe(failure);
    expect(reservation.release).toHaveBeenCalled();
    expect(reservation.complete).not.toHaveBeenCalled();
  });

  it('still answers when the store cannot record the outcome', async () => {
    reserve.mockResolvedValue({ state: 'reserved', reservation });
    reservation.complete.mockRejectedValue(new Error('store down'));
    handler.mockReturnValue(of(PET));
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    await expect(run(http({ 'idempotency-key': 'abc' }).ctx)).resolves.toEqual(PET);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('store down'));
  });

  it('replays a completed response without calling the handler', async () => {
    const completed: IdempotencyLookup = {
      state: 'completed',
      fingerprint: bodyFingerprint({ categoryId: 1, name: 'Rex' }),
      response: { status: 201, body: PET, location: LOCATION },
    };
    reserve.mockResolvedValue(completed);
    const { ctx, response } = http({ 'idempotency-key': 'abc' });
    await expect(run(ctx)).resolves.toEqual(PET);
    expect(handler).not.toHaveBeenCalled();
    expect(response.status).toHaveBeenCalledWith(201);
    expect(response.getHeader('Location')).toBe(LOCATION);
  });

  it.each<[string, IdempotencyLookup, new () => Error]>([
    [
      'a completed key with another body: 422',
      { state: 'completed', fingerprint: 'other', response: { status: 201, body: PET } },
      IdempotencyKeyReusedException,
    ],
    ['a pending key with another body: 422', { state: 'pending', fingerprint: 'other' }, IdempotencyKeyReusedException],
    ['a pending key with the same body: 409', { state: 'pending', fingerprint: bodyFingerprint(BODY) }, IdempotencyConflictException],
  ])('answers %s', async (_case, lookup, exception) => {
    reserve.mockResolvedValue(lookup);
    await expect(interceptor.intercept(http({ 'idempotency-key': 'abc' }).ctx, next)).rejects.toBeInstanceOf(exception);
    expect(handler).not.toHaveBeenCalled();
  });
});
