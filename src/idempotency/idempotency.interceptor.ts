import { HttpStatus, Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { defer, lastValueFrom, of, type Observable } from 'rxjs';
import { principalOf } from '../auth/principal.js';
import { bodyFingerprint, idempotencyKeyHash } from './idempotency-key.js';
import { IdempotencyConflictException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';
import { IdempotencyStore, type Reservation } from './idempotency.store.js';

/**
 * Makes a creation safe to retry (docs/contract/decisions.md, "Idempotency"): under the same
 * `Idempotency-Key` from the same client, the first 201 (status, body, `Location`) is replayed
 * for 24 hours without running the handler again; a different body gets 422, a retry while the
 * first still runs gets 409. Only a 201 is stored: on any other outcome the key is released, so
 * the client may fix its request and retry under the same key. Without the header, nothing
 * changes. It runs after the guard (which names the client) and before validation.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(private readonly store: IdempotencyStore) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const keyHash = idempotencyKeyHash(request.headers['idempotency-key']);
    if (keyHash === undefined) return next.handle();
    const principal = principalOf(request);
    if (!principal) throw new Error('IdempotencyInterceptor runs only on routes the API key guard has authenticated');

    const fingerprint = bodyFingerprint(request.body);
    const lookup = await this.store.reserve({ clientId: principal.clientId, keyHash }, fingerprint);
    if (lookup.state === 'reserved') return defer(() => this.handle(next, response, lookup.reservation));
    if (lookup.fingerprint !== fingerprint) throw new IdempotencyKeyReusedException();
    if (lookup.state === 'pending') throw new IdempotencyConflictException();

    const { status, body, location } = lookup.response;
    response.status(status);
    if (location !== undefined) response.setHeader('Location', location);
    return of(body);
  }

  private async handle(next: CallHandler, response: Response, reservation: Reservation): Promise<unknown> {
    let body: unknown;
    try {
      body = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (error) {
      await this.settle(reservation.release());
      throw error;
    }
    if (response.statusCode !== Number(HttpStatus.CREATED)) {
      await this.settle(reservation.release());
      return body;
    }
    const location = response.getHeader('Location');
    await this.settle(reservation.complete({ status: response.statusCode, body, ...(typeof location === 'string' && { location }) }));
    return body;
  }

  /**
   * The handler's outcome stands even if the store cannot record it: the client gets its answer,
   * and the pending mark expires on its own.
   */
  private async settle(write: Promise<void>): Promise<void> {
    try {
      await write;
    } catch (error) {
      this.logger.error(`Could not record the outcome of an idempotent request: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
