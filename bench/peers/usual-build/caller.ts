import type { ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { PlanLimits } from '../../../src/modules/plans/plan-catalogue.js';

/** Who sent a request, as the bearer guard found it. */
export interface Caller {
  /** SHA-256 of the key (hex): the throttlers' tracker, so the raw key is never a Redis key. */
  keyHash: string;
  limits: PlanLimits;
}

export type RequestWithCaller = Request & { caller?: Caller };

/** The caller the bearer guard attached (the throttler guard runs after it). */
export function callerOf(context: ExecutionContext): Caller {
  const caller = context.switchToHttp().getRequest<RequestWithCaller>().caller;
  if (!caller) throw new Error('the bearer guard must run before the throttler guard');
  return caller;
}
