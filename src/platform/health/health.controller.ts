import { Controller, Get, HttpStatus, Module, Res, ServiceUnavailableException, type OnModuleInit } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, type HealthCheckResult, type HealthIndicatorFunction } from '@nestjs/terminus';
import type { Response } from 'express';
import { Public } from '../../common/index.js';
import { ShutdownModule } from './graceful-shutdown.js';
import { ReadinessIndicator, type ReadinessCheck } from './readiness-indicator.js';

/** Liveness and readiness (every module's `@ReadinessIndicator()` providers), in the terminus response shape. */
@Public()
@ApiExcludeController()
@Controller('health')
export class HealthController implements OnModuleInit {
  private readiness: HealthIndicatorFunction[] = [];

  constructor(
    private readonly health: HealthCheckService,
    private readonly discovery: DiscoveryService,
  ) {}

  onModuleInit(): void {
    const checks = this.discovery.getProviders({ metadataKey: ReadinessIndicator.KEY }).map(({ instance }) => instance as ReadinessCheck);
    this.readiness = checks.map((indicator) => () => indicator.check());
  }

  @Get('live')
  @HealthCheck()
  live(@Res({ passthrough: true }) response: Response): Promise<HealthCheckResult> {
    return this.check(response, []);
  }

  @Get('ready')
  @HealthCheck()
  ready(@Res({ passthrough: true }) response: Response): Promise<HealthCheckResult> {
    return this.check(response, this.readiness);
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

@Module({ imports: [ShutdownModule, DiscoveryModule], controllers: [HealthController] })
export class HealthModule {}
