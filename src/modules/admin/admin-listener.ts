import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import type { Express, NextFunction, Request, Response } from 'express';
import { answerRouteNotFound, answerUnparsableRequests, createExpressServer, setListener } from '../../common/index.js';
import { GracefulShutdown } from '../../platform/health/index.js';
import type { AdminConfig } from './admin.config.js';

/** What the admin listener serves: the API, and its documentation (Swagger UI, its assets, JSON and YAML). */
const ADMIN_PATHS = /^\/admin\/(?:v1(?:\/|$)|docs)/i;
/** What the public listener never serves; Express routes case-insensitively, so neither does this. */
const ADMIN_PREFIX = /^\/admin/i;

/**
 * The admin listener (docs/contract/decisions.md, "Administration"): a second server on the same Express
 * application, on ADMIN_HOST:ADMIN_PORT, started after the public one and drained with it on shutdown.
 * Which listener a request came in on is told by its socket, in `split`, first in the pipeline.
 */
@Injectable()
export class AdminListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AdminListener');
  private readonly config: AdminConfig;
  private readonly sockets = new WeakSet<Socket>();
  /** The listener's server, once the application is up; none while ADMIN_PORT is unset. */
  server?: Server;
  private closed?: Promise<unknown>;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly shutdown: GracefulShutdown,
    config: ConfigService,
  ) {
    this.config = config.getOrThrow<AdminConfig>('admin');
  }

  onApplicationBootstrap(): void {
    if (this.config.port === undefined) return;
    const server = createExpressServer(this.adapterHost.httpAdapter.getInstance<Express>());
    answerUnparsableRequests(server);
    server.on('connection', (socket: Socket) => this.sockets.add(socket));
    this.server = server;
  }

  /** Listens on ADMIN_HOST:ADMIN_PORT, when set; main.ts calls it once the public server listens. */
  async listen(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.port, this.config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.closed = once(server, 'close');
    this.shutdown.drain(server);
    this.logger.log(`Admin API on http://${this.config.host}:${(server.address() as AddressInfo).port}/admin/v1 (docs at /admin/docs)`);
  }

  /** Marks the admin listener's requests, and answers each listener's requests for the other's paths as unknown paths. */
  readonly split = (request: Request, response: Response, next: NextFunction): void => {
    const admin = this.sockets.has(request.socket);
    if (admin) setListener(request, 'admin');
    if (admin ? ADMIN_PATHS.test(request.path) : !ADMIN_PREFIX.test(request.path)) return next();
    answerRouteNotFound(request, response);
  };

  /** Without a signal (a test's `close()`), nothing closed the server yet; with one, GracefulShutdown did. */
  async onApplicationShutdown(): Promise<void> {
    if (!this.server || !this.closed) return;
    if (this.server.listening) this.server.close();
    await this.closed;
  }
}
