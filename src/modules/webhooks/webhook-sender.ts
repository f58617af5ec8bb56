import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../platform/config/index.js';
import type { WebhooksConfig } from './webhooks.config.js';
import { BlockedAddressError, checkedLookup, hostOf, HostResolver, isPublicAddress } from './target-address.js';

/** What the receiver answered, or why it could not: a status, or an error code (`timeout`, `blocked_address`, ...). */
export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes, one per secret. */
export function signatures(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map(
      (secret) =>
        `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
          .update(`${id}.${timestamp}.${body}`)
          .digest('base64')}`,
    )
    .join(' ');
}

/** Error codes of the socket errors worth telling apart; any other is `connection_failed`. */
const ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  ENOTFOUND: 'dns_failed',
  EAI_AGAIN: 'dns_failed',
  ABORT_ERR: 'timeout',
};

/** POSTs an event: no redirect followed, a 2xx within the timeout succeeds, and only checked addresses are connected to. */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly config = this.configService.getOrThrow<WebhooksConfig>('webhooks');
  private readonly production = this.configService.getOrThrow<AppConfig>('app').production;
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 20 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 20 }),
  };

  constructor(
    private readonly configService: ConfigService,
    @Inject(HostResolver) private readonly resolver: HostResolver,
  ) {}

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const result = await this.attempt(new URL(url), headers, body).catch((error: NodeJS.ErrnoException) => ({
      statusCode: null,
      error: error instanceof BlockedAddressError ? error.code : (ERRORS[error.code ?? error.name] ?? 'connection_failed'),
    }));
    return { ...result, durationMs: Math.round(performance.now() - started) };
  }

  onApplicationShutdown(): void {
    for (const agent of Object.values(this.agents)) agent.destroy();
  }

  private attempt(url: URL, headers: Record<string, string>, body: string): Promise<Omit<SendResult, 'durationMs'>> {
    const { allowPrivateTargets, timeoutMs } = this.config;
    if (this.production && url.protocol !== 'https:') return Promise.resolve({ statusCode: null, error: 'https_required' });
    const host = hostOf(url);
    if (isIP(host) && !allowPrivateTargets && !isPublicAddress(host)) return Promise.reject(new BlockedAddressError(host));
    return new Promise((resolve, reject) => {
      const request = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'POST',
        agent: this.agents[url.protocol as 'http:' | 'https:'],
        lookup: checkedLookup(this.resolver, allowPrivateTargets),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'pet-adoption-webhooks/1',
        },
        signal: AbortSignal.timeout(timeoutMs),
      });
      request.on('response', (response) => {
        response.resume(); // the body is not read, only drained so the socket can be reused
        resolve({ statusCode: response.statusCode ?? null, error: null });
      });
      request.on('error', reject);
      request.end(body);
    });
  }
}
