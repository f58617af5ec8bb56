import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TerminusModule } from '@nestjs/terminus';
import type { AppConfig } from '../config/index.js';
import { GracefulShutdown } from './graceful-shutdown.js';

/** An application's shutdown on SIGTERM: the readiness delay (terminus, whose health checks fail meanwhile), then the grace. */
@Module({
  imports: [
    TerminusModule.forRootAsync({
      inject: [ConfigService],
      // On SIGTERM, every health check answers 503 this long before shutdown proceeds.
      useFactory: (config: ConfigService) => ({ gracefulShutdownTimeoutMs: config.getOrThrow<AppConfig>('app').shutdownReadinessDelayMs }),
    }),
  ],
  providers: [GracefulShutdown],
  exports: [TerminusModule, GracefulShutdown],
})
export class ShutdownModule {}
