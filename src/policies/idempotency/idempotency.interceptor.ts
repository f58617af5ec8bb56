import { HttpStatus, Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { defer, lastValueFrom, of, type Observable } from 'rxjs';
import { principalOf } from '../../common/index.js';
import { DatabaseIdempotencyStore } from './database-idempotency.store.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT } from './idempotent.decorator.js';
import { bodyFingerprint, idempotencyKeyHash } from './idempotency-key.js';
import { IdempotencyConflictException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';
import { IdempotencyStore, type HeldKey, type Reservation } from './idempotency.store.js';
import { IdempotentCreation, KeyHeldElsewhere } from './idempotent-creation.js';

/**
 * Makes a creation safe to retry (docs/contract/decisions.md, "Idempotency"): under the same
 * `Idempotency-Key` from the same client, the first 201 (status, body, `Location`) is replayed
 * for 24 hours without running the handler again; a different body gets 422, a retry while the
 * first still runs gets 409. Only a 201 is stored: on any other outcome the key is released, so
 * the client may fix its request and retry under the same key. Without the header, nothing
 * changes. It runs after the guard (which names the client) and before validation.
 *
 * The store (Redis, or the database) holds the in-flight mark and serves replays fast; the
 * completed creation is recorded in the database in the creation's own transaction
 * (`IdempotentCreation`), so a retry that Redis has forgotten (a failover, a restart, a lost
 * node) still gets the first response and creates nothing.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly store: IdempotencyStore,
    private readonly ledger: DatabaseIdempotencyStore,
    private readonly reflector: Reflector,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (!this.reflector.get<boolean>(IDEMPOTENT, context.getHandler())) return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const keyHash = idempotencyKeyHash(request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]);
    if (keyHash === undefined) return next.handle();
    const principal = principalOf(request);
    if (!principal) throw new Error('IdempotencyInterceptor runs only on routes the API key guard has authenticated');

    const scope = { clientId: principal.clientId, keyHash };
    const fingerprint = bodyFingerprint(request.body);
    const lookup = await this.store.reserve(scope, fingerprint);
    if (lookup.state === 'reserved') {
      const creation = new IdempotentCreation(this.ledger, scope, fingerprint, lookup.reservation.token);
      return defer(() => this.handle(next, response, creation, fingerprint, lookup.reservation));
    }
    return of(answer(lookup, fingerprint, response));
  }

  private async handle(
    next: CallHandler,
    response: Response,
    creation: IdempotentCreation,
    fingerprint: string,
    reservation: Reservation,
  ): Promise<unknown> {
    let body: unknown;
    try {
      body = await creation.run(() => lastValueFrom(next.handle(), { defaultValue: undefined }));
    } catch (error) {
      await creation.rollback();
      if (error instanceof KeyHeldElsewhere) return this.answerHeld(error.held, fingerprint, response, reservation);
      await this.settle(reservation.release());
      throw error;
    }
    const location = response.getHeader('Location');
    const stored =
      response.statusCode === Number(HttpStatus.CREATED)
        ? { status: response.statusCode, body, ...(typeof location === 'string' && { location }) }
        : undefined;
    try {
      await creation.finish(stored);
    } catch (error) {
      await this.settle(reservation.release());
      throw error;
    }
    await this.settle(stored ? reservation.complete(stored) : reservation.release());
    return body;
  }

  /**
   * The database holds the key for another request (Redis had forgotten it): answer as a retry
   * of that request, and teach the fast store the completed response.
   */
  private async answerHeld(held: HeldKey, fingerprint: string, response: Response, reservation: Reservation): Promise<unknown> {
    const replay = held.state === 'completed' && held.fingerprint === fingerprint;
    await this.settle(replay ? reservation.complete(held.response) : reservation.release());
    return answer(held, fingerprint, response);
  }

  /**
   * The handler's outcome stands even if the fast store cannot record it: the client gets its
   * answer, the database has the record, and the pending mark expires on its own.
   */
  private async settle(write: Promise<void>): Promise<void> {
    try {
      await write;
    } catch (error) {
      this.logger.error(`Could not record the outcome of an idempotent request: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** A held key answers a retry: 422 for another body, 409 while pending, else the first response. */
function answer(held: HeldKey, fingerprint: string, response: Response): unknown {
  if (held.fingerprint !== fingerprint) throw new IdempotencyKeyReusedException();
  if (held.state === 'pending') throw new IdempotencyConflictException();
  const { status, body, location } = held.response;
  response.status(status);
  if (location !== undefined) response.setHeader('Location', location);
  return body;
}
