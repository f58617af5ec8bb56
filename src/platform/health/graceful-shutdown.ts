import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import type { AppConfig } from '../config/index.js';

/**
 * Bounds the shutdown that SIGTERM starts. Terminus first answers readiness with 503 for
 * SHUTDOWN_READINESS_DELAY_MS while the server still serves (so the load balancer stops sending);
 * then the server stops accepting and in-flight requests finish; whatever still runs after
 * SHUTDOWN_GRACE_MS more has its connection closed, so the database and Redis close in bounded time.
 */
const IDLE_SWEEP_MS = 100;

@Injectable()
export class GracefulShutdown implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private readonly config: AppConfig;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    config: ConfigService,
  ) {
    this.config = config.getOrThrow<AppConfig>('app');
  }

  beforeApplicationShutdown(signal?: string): void {
    if (!signal) return;
    const { shutdownReadinessDelayMs, shutdownGraceMs } = this.config;
    this.logger.log(
      `${signal}: readiness fails now; stop accepting in ${shutdownReadinessDelayMs} ms; in-flight requests get ${shutdownGraceMs} ms more`,
    );
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
    // Once the server stops accepting, keep-alive connections are closed as soon as they fall idle,
    // so the process does not wait for clients to hang up. Not before: during the readiness delay
    // the load balancer may still send requests over its idle connections to this replica, and
    // closing one under such a request makes the balancer drop its client's connection unanswered.
    let closeIdle: NodeJS.Timeout | undefined;
    const stopAccepting = setTimeout(() => {
      closeIdle = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
    }, shutdownReadinessDelayMs).unref();
    const forceClose = setTimeout(() => {
      this.logger.warn('Grace period over: closing the connections still open');
      server.closeAllConnections();
    }, shutdownReadinessDelayMs + shutdownGraceMs).unref();
    server.once('close', () => {
      clearTimeout(stopAccepting);
      clearInterval(closeIdle);
      clearTimeout(forceClose);
    });
  }
}
