import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DiscoveryModule } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import type { AppConfig } from '../config/index.js';
import { GracefulShutdown } from './graceful-shutdown.js';
import { HealthController } from './health.controller.js';

@Module({
  imports: [
    TerminusModule.forRootAsync({
      inject: [ConfigService],
      // On SIGTERM, every health check answers 503 this long before shutdown proceeds.
      useFactory: (config: ConfigService) => ({ gracefulShutdownTimeoutMs: config.getOrThrow<AppConfig>('app').shutdownReadinessDelayMs }),
    }),
    DiscoveryModule,
  ],
  providers: [GracefulShutdown],
  controllers: [HealthController],
  exports: [GracefulShutdown],
})
export class HealthModule {}
