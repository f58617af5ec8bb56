import { Controller, Get, HttpStatus, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  TypeOrmHealthIndicator,
  type HealthCheckResult,
  type HealthIndicatorFunction,
} from '@nestjs/terminus';
import type { Response } from 'express';
import { Public } from '../auth/index.js';
import { RateLimitHealthIndicator } from '../rate-limit/index.js';

/** Liveness and readiness for orchestrators, in the terminus response shape. */
@Public()
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly rateLimiter: RateLimitHealthIndicator,
  ) {}

  @Get('live')
  @HealthCheck()
  live(@Res({ passthrough: true }) response: Response): Promise<HealthCheckResult> {
    return this.check(response, []);
  }

  @Get('ready')
  @HealthCheck()
  ready(@Res({ passthrough: true }) response: Response): Promise<HealthCheckResult> {
    return this.check(response, [() => this.database.pingCheck('database', { timeout: 2_000 }), () => this.rateLimiter.check()]);
  }

  /** Answers 503 with the terminus body itself, rather than as an API Error object. */
  private async check(response: Response, indicators: HealthIndicatorFunction[]): Promise<HealthCheckResult> {
    try {
      return await this.health.check(indicators);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      response.status(HttpStatus.SERVICE_UNAVAILABLE);
      return error.getResponse() as HealthCheckResult;
    }
  }
}
