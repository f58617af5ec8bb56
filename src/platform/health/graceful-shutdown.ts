import { Injectable, Logger, Module, type BeforeApplicationShutdown, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost, type NestApplicationContext } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AppConfig } from '../config/index.js';

const IDLE_SWEEP_MS = 100;

/**
 * Bounds the shutdown SIGTERM starts: readiness fails while the server still serves (terminus waits
 * SHUTDOWN_READINESS_DELAY_MS before Nest closes it), then connections still open SHUTDOWN_GRACE_MS later are closed.
 */
@Injectable()
export class GracefulShutdown implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  /** Nest's applications take the signal that closes them, though their interface does not say so. */
  private readonly borrowers = new Set<Pick<NestApplicationContext, 'close'>>();
  private borrowersClosed?: Promise<unknown>;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: ConfigService,
  ) {}

  /** An application built on this one's providers (the admin API): closed from the same signal, and before those providers. */
  closeWith(app: Pick<NestApplicationContext, 'close'>): void {
    this.borrowers.add(app);
  }

  beforeApplicationShutdown(signal?: string): void {
    this.borrowersClosed = Promise.all([...this.borrowers].map((app) => app.close(signal)));
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!signal || !server?.listening) return;
    const { shutdownReadinessDelayMs, shutdownGraceMs } = this.config.getOrThrow<AppConfig>('app');
    this.logger.log(
      `${signal}: readiness fails now; stop accepting in ${shutdownReadinessDelayMs} ms; in-flight requests get ${shutdownGraceMs} ms more`,
    );
    // Idle keep-alive connections are closed once the server stops accepting, not before: the
    // balancer may still send over them, and a request sent as one closes is dropped unanswered.
    let closeIdle: NodeJS.Timeout | undefined;
    const stopAccepting = setTimeout(() => {
      closeIdle = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
    }, shutdownReadinessDelayMs).unref();
    const forceClose = setTimeout(() => {
      this.logger.warn('Grace period over: closing the connections still open');
      server.closeAllConnections();
    }, shutdownReadinessDelayMs + shutdownGraceMs).unref();
    void once(server, 'close').then(() => {
      clearTimeout(stopAccepting);
      clearInterval(closeIdle);
      clearTimeout(forceClose);
    });
  }

  /** Before the database and Redis modules release what the borrowers use: Nest shuts global modules down last. */
  async onApplicationShutdown(): Promise<void> {
    await this.borrowersClosed;
  }
}

/** Terminus fails every health check for the readiness delay after SIGTERM, before shutdown proceeds. */
@Module({
  imports: [
    TerminusModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService) => ({ gracefulShutdownTimeoutMs: config.getOrThrow<AppConfig>('app').shutdownReadinessDelayMs }),
    }),
  ],
  providers: [GracefulShutdown],
  exports: [TerminusModule, GracefulShutdown],
})
export class ShutdownModule {}
