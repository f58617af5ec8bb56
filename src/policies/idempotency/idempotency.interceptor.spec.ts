import { jest } from '@jest/globals';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { lastValueFrom, of, throwError } from 'rxjs';
import type { ClsService } from 'nestjs-cls';
import { ValidationFailedException, type RequestContext } from '../../common/index.js';
import { bodyFingerprint } from './idempotency-key.js';
import type { FoundKey, IdempotencyKeysRepository, KeyHolder } from './idempotency-keys.repository.js';
import { IdempotencyConflictException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';

const BODY = { name: 'Rex', categoryId: 1 };
const PET = { id: 5, name: 'Rex', categoryId: 1, status: 'available' };
const LOCATION = 'http://localhost/v1/pets/5';
const SCOPE = { clientId: 7, keyHash: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' };
const NOW = new Date('2027-01-01T00:00:00Z');
const TOKEN = 'pets_callercallercallercallercaller12ab34';

function http(headers: Record<string, string>, body: unknown = BODY) {
  const request = { headers: { authorization: `Bearer ${TOKEN}`, ...headers }, body } as never;
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

/** Whether the route under test is `@Idempotent({ sealed: true })`. */
let sealed = false;

describe('IdempotencyInterceptor', () => {
  let holder: KeyHolder;
  const run = jest.fn<IdempotencyKeysRepository['underLock']>();
  const find = jest.fn<IdempotencyKeysRepository['find']>();
  const record = jest.fn<IdempotencyKeysRepository['record']>();
  const interceptor = new IdempotencyInterceptor(
    { underLock: run, find, record } as unknown as IdempotencyKeysRepository,
    { now: () => NOW },
    { get: () => ({ sealed }) } as unknown as Reflector,
    { get: () => ({ keyId: 3, clientId: 7, scopes: ['pets:write'] }) } as unknown as ClsService<RequestContext>,
  );
  const handler = jest.fn<CallHandler['handle']>();
  const next: CallHandler = { handle: handler };
  const send = (ctx: ExecutionContext) => lastValueFrom(interceptor.intercept(ctx, next));
  const completed = (fingerprint: string): FoundKey => ({ fingerprint, response: { status: 201, body: PET, location: LOCATION } });

  beforeEach(() => {
    jest.resetAllMocks();
    holder = 'this request';
    run.mockImplementation((_scope, _fingerprint, work) => work(holder));
    find.mockResolvedValue(undefined);
    record.mockResolvedValue();
  });

  it('passes a request without the header straight through', async () => {
    handler.mockReturnValue(of(PET));
    await expect(send(http({}).ctx)).resolves.toEqual(PET);
    expect(run).not.toHaveBeenCalled();
  });

  it('refuses an invalid header before taking the key', () => {
    expect(() => interceptor.intercept(http({ 'idempotency-key': '' }).ctx, next)).toThrow(ValidationFailedException);
    expect(run).not.toHaveBeenCalled();
  });

  it('holding the key: runs the handler and records the 201 with its Location for 24 hours, under the client and the key hash', async () => {
    const { ctx, response } = http({ 'idempotency-key': 'abc' });
    handler.mockImplementation(() => {
      response.setHeader('Location', LOCATION);
      return of(PET);
    });
    await expect(send(ctx)).resolves.toEqual(PET);
    expect(run).toHaveBeenCalledWith(SCOPE, bodyFingerprint(BODY), expect.any(Function));
    expect(find).toHaveBeenCalledWith(SCOPE, NOW, undefined);
    expect(record).toHaveBeenCalledWith(
      SCOPE,
      { fingerprint: bodyFingerprint(BODY), response: { status: 201, body: PET, location: LOCATION } },
      new Date(NOW.getTime() + 24 * 3_600_000),
      undefined,
    );
  });

  it("on a sealed route, finds and records the replay under the caller's API key", async () => {
    sealed = true;
    try {
      const { ctx } = http({ 'idempotency-key': 'abc' });
      handler.mockReturnValue(of(PET));
      await send(ctx).catch(() => undefined);
      expect(find).toHaveBeenCalledWith(SCOPE, NOW, TOKEN);
    } finally {
      sealed = false;
    }
  });

  it('records nothing when the handler answers another status', async () => {
    const { ctx, response } = http({ 'idempotency-key': 'abc' });
    response.statusCode = 200;
    handler.mockReturnValue(of(PET));
    await expect(send(ctx)).resolves.toEqual(PET);
    expect(record).not.toHaveBeenCalled();
  });

  it('records nothing and rethrows when the handler fails', async () => {
    const failure = new Error('validation');
    handler.mockReturnValue(throwError(() => failure));
    await expect(send(http({ 'idempotency-key': 'abc' }).ctx)).rejects.toBe(failure);
    expect(record).not.toHaveBeenCalled();
  });

  it('fails the request when the 201 cannot be recorded (its writes roll back with it)', async () => {
    const failure = new Error('disk full');
    record.mockRejectedValue(failure);
    handler.mockReturnValue(of(PET));
    await expect(send(http({ 'idempotency-key': 'abc' }).ctx)).rejects.toBe(failure);
  });

  it.each<KeyHolder>(['this request', 'same body', 'other body'])(
    'replays a completed response to the same body without calling the handler (key held by %s)',
    async (held) => {
      holder = held;
      find.mockResolvedValue(completed(bodyFingerprint({ categoryId: 1, name: 'Rex' })));
      const { ctx, response } = http({ 'idempotency-key': 'abc' });
      await expect(send(ctx)).resolves.toEqual(PET);
      expect(handler).not.toHaveBeenCalled();
      expect(response.status).toHaveBeenCalledWith(201);
      expect(response.getHeader('Location')).toBe(LOCATION);
      expect(record).not.toHaveBeenCalled();
    },
  );

  it('answers 422 naming the other API key when the replay is sealed for another key of the client', async () => {
    find.mockResolvedValue({ fingerprint: bodyFingerprint(BODY), response: 'sealed for another api key' });
    const refused = send(http({ 'idempotency-key': 'abc' }).ctx);
    await expect(refused).rejects.toBeInstanceOf(IdempotencyKeyReusedException);
    await expect(refused).rejects.toThrow(/another API key/);
    expect(handler).not.toHaveBeenCalled();
    expect(record).not.toHaveBeenCalled();
  });

  it.each<[string, KeyHolder, FoundKey | undefined, new () => Error]>([
    ['a completed key with another body: 422', 'this request', completed('other'), IdempotencyKeyReusedException],
    ['a key another body holds: 422', 'other body', undefined, IdempotencyKeyReusedException],
    ['a key the same body holds: 409', 'same body', undefined, IdempotencyConflictException],
  ])('answers %s', async (_case, held, found, exception) => {
    holder = held;
    find.mockResolvedValue(found);
    await expect(send(http({ 'idempotency-key': 'abc' }).ctx)).rejects.toBeInstanceOf(exception);
    expect(handler).not.toHaveBeenCalled();
  });
});
