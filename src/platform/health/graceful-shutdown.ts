import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import type { AppConfig } from '../config/index.js';

const IDLE_SWEEP_MS = 100;

/**
 * Bounds the shutdown SIGTERM starts: readiness fails while the server still serves, then it stops
 * accepting, and what still runs SHUTDOWN_GRACE_MS later has its connection closed.
 */
@Injectable()
export class GracefulShutdown implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: ConfigService,
  ) {}

  beforeApplicationShutdown(signal?: string): void {
    if (!signal) return;
    const { shutdownReadinessDelayMs, shutdownGraceMs } = this.config.getOrThrow<AppConfig>('app');
    this.logger.log(
      `${signal}: readiness fails now; stop accepting in ${shutdownReadinessDelayMs} ms; in-flight requests get ${shutdownGraceMs} ms more`,
    );
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
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
    server.once('close', () => {
      clearTimeout(stopAccepting);
      clearInterval(closeIdle);
      clearTimeout(forceClose);
    });
  }
}
