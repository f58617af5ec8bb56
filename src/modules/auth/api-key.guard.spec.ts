import { jest } from '@jest/globals';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeyGuard } from './api-key.guard.js';
import { InsufficientScopeException, InvalidApiKeyException, MissingApiKeyException } from './auth.exceptions.js';
import type { ClsService } from 'nestjs-cls';
import type { Principal, RequestContext } from '../../common/index.js';
import type { RequestAuthenticator } from './request-authenticator.js';
import { REQUIRED_SCOPE } from './scopes.js';

function context(authorization?: string) {
  const request = { headers: { authorization } };
  const ctx = {
    getHandler: () => context,
    getClass: () => ApiKeyGuard,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  return { ctx, request };
}

describe('ApiKeyGuard', () => {
  const identify = jest.fn<RequestAuthenticator['identify']>();
  const reflector = new Reflector();
  const context_ = new Map<string, unknown>();
  const cls = { set: (key: string, value: unknown) => context_.set(key, value) } as unknown as ClsService<RequestContext>;
  const guard = new ApiKeyGuard(reflector, { identify } as unknown as RequestAuthenticator, cls);

  beforeEach(() => {
    identify.mockReset();
    context_.clear();
    jest.restoreAllMocks();
  });

  it('lets a public route through without looking at the key', async () => {
    jest.spyOn(reflector, 'getAllAndOverride').mockReturnValue(true);
    await expect(guard.canActivate(context().ctx)).resolves.toBe(true);
    expect(identify).not.toHaveBeenCalled();
  });

  it('refuses a request without a bearer token as missing', async () => {
    identify.mockResolvedValue({ kind: 'missing' });
    await expect(guard.canActivate(context('Basic abc').ctx)).rejects.toBeInstanceOf(MissingApiKeyException);
  });

  it('refuses a token that does not authenticate as invalid', async () => {
    identify.mockResolvedValue({ kind: 'invalid', expired: false });
    await expect(guard.canActivate(context('Bearer nope').ctx)).rejects.toBeInstanceOf(InvalidApiKeyException);
  });

  it('tells the holder of an expired key that it expired, with the invalid key code', async () => {
    identify.mockResolvedValue({ kind: 'invalid', expired: true });
    await expect(guard.canActivate(context('Bearer old').ctx)).rejects.toMatchObject({ message: 'expired' });
    await expect(guard.canActivate(context('Bearer old').ctx)).rejects.toBeInstanceOf(InvalidApiKeyException);
  });

  it("puts the principal of a live key in the request's context", async () => {
    identify.mockResolvedValue({ kind: 'valid', principal: { keyId: 3, clientId: 7, scopes: ['pets:read'] } });
    const { ctx, request } = context('Bearer good');
    await expect(guard.canActivate(ctx)).resolves.toBe(true);
    expect(identify).toHaveBeenCalledWith(request);
    expect(context_.get('principal') as Principal).toEqual({ keyId: 3, clientId: 7, scopes: ['pets:read'] });
  });

  describe('on a route that requires a scope', () => {
    beforeEach(() => {
      jest.spyOn(reflector, 'getAllAndOverride').mockImplementation((key) => (key === REQUIRED_SCOPE ? 'pets:write' : undefined));
    });

    it('lets a key with the scope through', async () => {
      identify.mockResolvedValue({ kind: 'valid', principal: { keyId: 3, clientId: 7, scopes: ['pets:read', 'pets:write'] } });
      await expect(guard.canActivate(context('Bearer good').ctx)).resolves.toBe(true);
    });

    it('refuses a live key without the scope with 403 insufficient_scope, naming the scope in the challenge', async () => {
      identify.mockResolvedValue({ kind: 'valid', principal: { keyId: 3, clientId: 7, scopes: ['pets:read', 'keys:manage'] } });
      const refusal = guard.canActivate(context('Bearer good').ctx);
      await expect(refusal).rejects.toBeInstanceOf(InsufficientScopeException);
      await expect(refusal).rejects.toMatchObject({
        code: 'insufficient_scope',
        headers: { 'WWW-Authenticate': 'Bearer realm="pets", error="insufficient_scope", scope="pets:write"' },
      });
    });

    it('still answers 401 before looking at scopes', async () => {
      identify.mockResolvedValue({ kind: 'invalid', expired: false });
      await expect(guard.canActivate(context('Bearer nope').ctx)).rejects.toBeInstanceOf(InvalidApiKeyException);
    });
  });
});
