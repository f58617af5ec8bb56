import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AppConfig } from '../config/index.js';

const IDLE_SWEEP_MS = 100;

/**
 * Bounds the shutdown SIGTERM starts: readiness fails while the servers still serve, then they stop
 * accepting, and what still runs SHUTDOWN_GRACE_MS later has its connection closed. Nest closes its own
 * server; another listener of the process (`drain`) is closed here, at the same moment.
 */
@Injectable()
export class GracefulShutdown implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private readonly others = new Set<Server>();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: ConfigService,
  ) {}

  /** A listening server besides Nest's (the admin listener), stopped and drained with it. */
  drain(server: Server): void {
    this.others.add(server);
  }

  beforeApplicationShutdown(signal?: string): void {
    if (!signal) return;
    const { shutdownReadinessDelayMs, shutdownGraceMs } = this.config.getOrThrow<AppConfig>('app');
    this.logger.log(
      `${signal}: readiness fails now; stop accepting in ${shutdownReadinessDelayMs} ms; in-flight requests get ${shutdownGraceMs} ms more`,
    );
    const main = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    const servers = [...(main ? [main] : []), ...this.others].filter((server) => server.listening);
    if (servers.length === 0) return;
    // Idle keep-alive connections are closed once the servers stop accepting, not before: the
    // balancer may still send over them, and a request sent as one closes is dropped unanswered.
    let closeIdle: NodeJS.Timeout | undefined;
    const stopAccepting = setTimeout(() => {
      for (const server of this.others) if (server.listening) server.close();
      closeIdle = setInterval(() => servers.forEach((server) => server.closeIdleConnections()), IDLE_SWEEP_MS).unref();
    }, shutdownReadinessDelayMs).unref();
    const forceClose = setTimeout(() => {
      this.logger.warn('Grace period over: closing the connections still open');
      servers.forEach((server) => server.closeAllConnections());
    }, shutdownReadinessDelayMs + shutdownGraceMs).unref();
    void Promise.all(servers.map((server) => once(server, 'close'))).then(() => {
      clearTimeout(stopAccepting);
      clearInterval(closeIdle);
      clearTimeout(forceClose);
    });
  }
}
