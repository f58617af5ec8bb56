import { HttpStatus, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { defer, lastValueFrom, type Observable } from 'rxjs';
import { ClsService } from 'nestjs-cls';
import { Clock, type RequestContext } from '../../common/index.js';
import { bearerToken } from '../../modules/auth/index.js';
import { IDEMPOTENCY_KEY_HEADER, IdempotentRoute } from './idempotent.decorator.js';
import { bodyFingerprint, idempotencyKeyHash } from './idempotency-key.js';
import { IdempotencyKeysRepository, type IdempotencyScope, type KeyHolder, type StoredResponse } from './idempotency-keys.repository.js';
import { IdempotencyConflictException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';

const REPLAYED_MS = 24 * 60 * 60_000;

/** The request under a key: its scope, its body's fingerprint, and on a sealed route the API key that seals and opens its replay. */
type Caller = { scope: IdempotencyScope; fingerprint: string; sealedFor?: string };

/**
 * The first 201 under a client's `Idempotency-Key`, recorded in the writes' transaction, is replayed for 24 hours; another
 * body (or, on a sealed route, another API key) gets 422, a retry while the first runs 409 (docs/contract/decisions.md).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly clock: Clock,
    private readonly reflector: Reflector,
    private readonly cls: ClsService<RequestContext>,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const options = this.reflector.get(IdempotentRoute, context.getHandler());
    if (!options) return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const keyHash = idempotencyKeyHash(request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]);
    if (keyHash === undefined) return next.handle();
    const principal = this.cls.get('principal');
    if (!principal) throw new Error('IdempotencyInterceptor runs only on routes the API key guard has authenticated');

    const scope = { clientId: principal.clientId, keyHash };
    const fingerprint = bodyFingerprint(request.body);
    const caller = { scope, fingerprint, sealedFor: options.sealed ? bearerToken(request.headers.authorization) : undefined };
    return defer(() => this.keys.underLock(scope, fingerprint, (holder) => this.attempt(holder, caller, next, response)));
  }

  private async attempt(holder: KeyHolder, { scope, fingerprint, sealedFor }: Caller, next: CallHandler, response: Response) {
    const completed = await this.keys.find(scope, this.clock.now(), sealedFor);
    if (completed && completed.fingerprint !== fingerprint) throw new IdempotencyKeyReusedException();
    if (completed?.response === 'sealed for another api key') throw new IdempotencyKeyReusedException('another api key');
    if (completed) return replay(completed.response, response);
    if (holder === 'other body') throw new IdempotencyKeyReusedException();
    if (holder === 'same body') throw new IdempotencyConflictException();

    const body: unknown = await lastValueFrom(next.handle(), { defaultValue: undefined });
    if (response.statusCode === Number(HttpStatus.CREATED)) {
      const location = response.getHeader('Location');
      const first = { status: response.statusCode, body, ...(typeof location === 'string' && { location }) };
      await this.keys.record(scope, { fingerprint, response: first }, new Date(this.clock.now().getTime() + REPLAYED_MS), sealedFor);
    }
    return body;
  }
}

function replay({ status, body, location }: StoredResponse, response: Response): unknown {
  response.status(status);
  if (location !== undefined) response.setHeader('Location', location);
  return body;
}
