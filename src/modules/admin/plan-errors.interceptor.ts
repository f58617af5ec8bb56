import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { catchError, throwError, type Observable } from 'rxjs';
import { ValidationFailedException } from '../../common/index.js';
import { ClientNotFoundError, PlanRuleError } from '../plans/index.js';
import { ClientNotFoundException } from './admin.exceptions.js';

/** The plans module's errors, with the messages the command-line tool prints: a broken rule is 400, an unknown client 404. */
@Injectable()
export class PlanErrorsInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(catchError((error: unknown) => throwError(() => toApiError(error))));
  }
}

function toApiError(error: unknown): unknown {
  if (error instanceof PlanRuleError) return new ValidationFailedException([], error.message);
  if (error instanceof ClientNotFoundError) return new ClientNotFoundException(error.message);
  return error;
}
