import type { QuotaWindow } from './contract.js';
import { deprecationNotice, type DeprecationNotice } from './deprecation.js';
import { errorFromResponse } from './error-from-response.js';
import { ConnectionError, RateLimitError, TimeoutError } from './errors.js';
import { quotaWindow } from './quota-headers.js';
import { retryDelayMs, type RetryLimits } from './retry-policy.js';
import { sleep } from './sleep.js';

export interface TransportOptions extends RetryLimits {
  apiKey: string;
  /** Ends in `/v1`, without a slash after it. */
  baseUrl: URL;
  /** For one attempt: from sending the request to the end of the answer's body. */
  timeoutMs: number;
  fetch: typeof fetch;
  onDeprecation: (notice: DeprecationNotice) => void;
}

/** One logical call of an operation: the library may send it several times. */
export interface Call {
  /** The operation's id in the OpenAPI document (`createPet`). */
  operation: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: URL;
  body?: unknown;
  /** POST only: the caller's key; else one is made for the call. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface Answer<T> {
  data: T;
  headers: Headers;
}

/**
 * Sends calls and applies the retry rules. One instance per PetsClient, so its memory is the
 * client's: the last quota headers, the deprecations already reported, and the end of a minute
 * window that refused, before which none of the client's requests leaves (each would be refused and
 * count towards a suspension: 30 refusals in a minute).
 */
export class Transport {
  lastRateLimit?: QuotaWindow;
  private pausedUntilMs = 0;
  private readonly reported = new Set<string>();

  constructor(private readonly options: TransportOptions) {}

  /** `path` under the base URL (`/pets`), with the query parameters that are set. */
  url(path: string, query: Record<string, string | number | undefined> = {}): URL {
    const url = new URL(`${this.options.baseUrl.pathname}${path}`, this.options.baseUrl);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
    return url;
  }

  /**
   * A link of an answer (the next page), as the client's own origin: the path and query the service
   * gave, never another host, so the API key goes only where the caller sent it.
   */
  follow(link: string): URL {
    const target = new URL(link, this.options.baseUrl);
    return new URL(`${target.pathname}${target.search}`, this.options.baseUrl);
  }

  async request<T>(call: Call): Promise<T> {
    return (await this.exchange<T>(call)).data;
  }

  async exchange<T>(call: Call): Promise<Answer<T>> {
    const init = this.requestInit(call);
    for (let retries = 0; ; retries++) {
      await sleep(this.pausedUntilMs - Date.now(), call.signal);
      try {
        return await this.attempt<T>(call, init);
      } catch (error) {
        this.pauseAfter(error);
        const delayMs = retryDelayMs(error, retries, this.options);
        if (delayMs === undefined) throw error;
        await sleep(delayMs, call.signal);
      }
    }
  }

  /** A full minute window holds the client's requests until its Retry-After, unless that is longer than any wait it allows. */
  private pauseAfter(error: unknown): void {
    if (!(error instanceof RateLimitError) || error.window !== 'minute') return;
    const retryAfterMs = error.retryAfterSeconds * 1000;
    if (retryAfterMs <= this.options.maxRetryDelayMs) this.pausedUntilMs = Math.max(this.pausedUntilMs, Date.now() + retryAfterMs);
  }

  /** The same request for every attempt: a POST's Idempotency-Key is made once per call. */
  private requestInit({ method, body, idempotencyKey }: Call): RequestInit {
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${this.options.apiKey}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method === 'POST') headers['Idempotency-Key'] = idempotencyKey ?? crypto.randomUUID();
    return { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  }

  private async attempt<T>(call: Call, init: RequestInit): Promise<Answer<T>> {
    const { status, headers, text } = await this.send(call, init);
    this.lastRateLimit = quotaWindow(headers) ?? this.lastRateLimit;
    this.report(deprecationNotice(call.operation, headers, this.options.baseUrl));
    if (status < 200 || status > 299) throw errorFromResponse(status, headers, text);
    if (text === '') return { data: undefined as T, headers };
    try {
      return { data: JSON.parse(text) as T, headers };
    } catch {
      throw errorFromResponse(status, headers, text);
    }
  }

  /** One exchange over the network, bounded by the timeout and the caller's signal. */
  private async send({ url, signal }: Call, init: RequestInit): Promise<{ status: number; headers: Headers; text: string }> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.options.timeoutMs);
    try {
      const response = await this.options.fetch(url, {
        ...init,
        signal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
      });
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.signal.aborted) throw new TimeoutError(`No answer from ${url.origin} within ${this.options.timeoutMs} ms`);
      throw new ConnectionError(`No answer from ${url.origin}: ${describe(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  private report(notice: DeprecationNotice | undefined): void {
    if (!notice || this.reported.has(notice.operation)) return;
    this.reported.add(notice.operation);
    this.options.onDeprecation(notice);
  }
}

/** An error's message with its cause's (Node's fetch says only "fetch failed", its cause says why). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}
