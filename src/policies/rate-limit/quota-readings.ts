import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { windowsOf } from './rate-limit.decision.js';

type Windows = ReturnType<typeof windowsOf>;

export interface QuotaWindow {
  limit: number;
  remaining: number;
  /** Unix time in seconds at which the window ends. */
  reset: number;
}

/** The caller's plan and both windows, read without counting. */
export interface QuotaReading {
  plan: string;
  minute: QuotaWindow;
  day: QuotaWindow;
}

/** The reading the limiter made for a request of an `@UncountedRead()` route, for its handler: the body agrees with the headers. */
@Injectable()
export class QuotaReadings {
  private readonly readings = new WeakMap<Request, QuotaReading>();

  record(request: Request, plan: string, { minute, day }: Windows): void {
    const window = ({ limit, remaining, resetMs }: Windows['minute']) => ({ limit, remaining, reset: Math.ceil(resetMs / 1000) });
    this.readings.set(request, { plan, minute: window(minute), day: window(day) });
  }

  of(request: Request): QuotaReading {
    const reading = this.readings.get(request);
    if (!reading) throw new Error(`The limiter read no quota for ${request.method} ${request.path}: is the route marked @UncountedRead()?`);
    return reading;
  }
}
