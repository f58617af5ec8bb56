import { Controller, Get } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { Public } from './public.decorator.js';

/** Readiness for the benchmark: answers once the application listens. */
@Controller('health')
export class HealthController {
  @Get()
  @Public()
  @SkipThrottle({ minute: true, day: true })
  check(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
