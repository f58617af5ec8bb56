import type { QuotaWindow, Query, RateLimitStatus, Usage } from './contract.js';
import { warnOfDeprecation, type DeprecationNotice } from './deprecation.js';
import type { RequestOptions } from './request-options.js';
import { Keys } from './resources/keys.js';
import { Pets } from './resources/pets.js';
import { WebhookEndpoints } from './resources/webhooks.js';
import { Transport } from './transport.js';

export interface ClientOptions {
  /** Your API key, `pets_…`. */
  apiKey: string;
  /** The API's base URL, ending in `/v1`: `https://api.pets.example/v1`. */
  baseUrl: string;
  /** Retries after the first attempt (default 2); 0 turns retries off. */
  maxRetries?: number;
  /** The longest wait before a retry (default 60 s); a longer Retry-After raises the error at once. */
  maxRetryDelayMs?: number;
  /** The longest one attempt may take, body included (default 30 s, HAProxy's server timeout in front of the service). */
  timeoutMs?: number;
  /** The `fetch` to use (default: the platform's). */
  fetch?: typeof fetch;
  /** Told once per operation when the service says it is deprecated (default: a console warning). */
  onDeprecation?: (notice: DeprecationNotice) => void;
}

const DEFAULTS = { maxRetries: 2, maxRetryDelayMs: 60_000, timeoutMs: 30_000 };

function checked(name: string, value: number, minimum: number): number {
  if (!Number.isSafeInteger(value) || value < minimum)
    throw new RangeError(`PetsClient: ${name} must be an integer of at least ${minimum}, not ${value}`);
  return value;
}

function baseUrlOf(baseUrl: string): URL {
  const trimmed = baseUrl.replace(/\/+$/, '');
  if (!URL.canParse(trimmed) || !new URL(trimmed).pathname.endsWith('/v1')) {
    throw new TypeError(`PetsClient: baseUrl must be an absolute URL ending in /v1, not ${baseUrl}`);
  }
  return new URL(trimmed);
}

/**
 * The Pet Adoption Service's client. It retries what a retry can fix (network errors, 5xx, a full
 * minute window after its Retry-After), sends every POST with an Idempotency-Key so a retry never
 * creates twice, follows pages, and raises typed errors (ApiError and its subclasses).
 */
export class PetsClient {
  readonly pets: Pets;
  readonly keys: Keys;
  readonly webhookEndpoints: WebhookEndpoints;
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    if (!options.apiKey) throw new TypeError('PetsClient: apiKey is required');
    const fetchImpl = options.fetch ?? globalThis.fetch;
    this.transport = new Transport({
      apiKey: options.apiKey,
      baseUrl: baseUrlOf(options.baseUrl),
      maxRetries: checked('maxRetries', options.maxRetries ?? DEFAULTS.maxRetries, 0),
      maxRetryDelayMs: checked('maxRetryDelayMs', options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs, 1),
      timeoutMs: checked('timeoutMs', options.timeoutMs ?? DEFAULTS.timeoutMs, 1),
      // Called as a plain function: a browser's fetch refuses to run as another object's method.
      fetch: (input, init) => fetchImpl(input, init),
      onDeprecation: options.onDeprecation ?? warnOfDeprecation,
    });
    this.pets = new Pets(this.transport);
    this.keys = new Keys(this.transport);
    this.webhookEndpoints = new WebhookEndpoints(this.transport);
  }

  /** `{ limit, remaining, reset }` of the last answer's `X-RateLimit-*` headers: the window with the least room left. */
  get lastRateLimit(): QuotaWindow | undefined {
    return this.transport.lastRateLimit;
  }

  /** Your plan and both windows now; not counted in them. */
  rateLimit({ signal }: RequestOptions = {}): Promise<RateLimitStatus> {
    return this.transport.request<RateLimitStatus>({
      operation: 'getRateLimit',
      method: 'GET',
      url: this.transport.url('/rate_limit'),
      signal,
    });
  }

  /** Requests admitted and refused per UTC day and key (a `keys:manage` key); by default the last 30 days. */
  usage(query: Query<'getUsage'> = {}, { signal }: RequestOptions = {}): Promise<Usage> {
    return this.transport.request<Usage>({ operation: 'getUsage', method: 'GET', url: this.transport.url('/usage', query), signal });
  }
}
