import { jest } from '@jest/globals';
import { PetsClient, type ClientOptions } from '../src/pets-client.js';

/** What the fake API answers next: a response, or an error as `fetch` throws it (no answer). */
export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

export interface Sent {
  method: string;
  url: URL;
  headers: Headers;
  body?: unknown;
  /** `Date.now()` when it was sent: the fake clock's time under jest's fake timers. */
  at: number;
}

/**
 * A `fetch` that answers from a script, records what it was sent and when, and never touches the
 * network. `hang()` makes the next request wait until its signal aborts, as a server that never answers.
 */
export class FakeApi {
  readonly sent: Sent[] = [];
  private readonly script: Array<Reply | 'hang'> = [];

  reply(...replies: Reply[]): this {
    this.script.push(...replies);
    return this;
  }

  hang(): this {
    this.script.push('hang');
    return this;
  }

  readonly fetch: typeof fetch = async (input, init = {}) => {
    const request = new Request(input, init);
    const text = await request.text();
    this.sent.push({
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body: text ? JSON.parse(text) : undefined,
      at: Date.now(),
    });
    const next = this.script.shift();
    if (next === undefined) throw new Error(`FakeApi: nothing scripted for ${request.method} ${request.url}`);
    if (next === 'hang')
      return new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)));
    if (next instanceof Error) throw next;
    const body = next.body === undefined ? null : typeof next.body === 'string' ? next.body : JSON.stringify(next.body);
    return new Response(body, { status: next.status, headers: next.headers });
  };
}

/** The API's Error object with its status. */
export const errorReply = (status: number, code: string, headers: Record<string, string> = {}): Reply => ({
  status,
  body: { code, message: `${code} happened`, status },
  headers: { 'X-Request-Id': `req-${code}`, ...headers },
});

/** A 429 of the minute window, as the service sends it `seconds` before the minute ends. */
export const minuteFull = (seconds: number): Reply =>
  errorReply(429, 'rate_limit_exceeded', { 'Retry-After': String(seconds), RateLimit: `"minute";r=0;t=${seconds}` });

export const BASE_URL = 'https://api.pets.example/v1';

/** A client of the fake API, with no deprecation warnings unless asked. */
export const clientOf = (api: FakeApi, options: Partial<ClientOptions> = {}): PetsClient =>
  new PetsClient({ apiKey: 'pets_test', baseUrl: BASE_URL, fetch: api.fetch, onDeprecation: () => undefined, ...options });

/** The value or the error `call` settles with, never a rejection. */
export const outcome = <T>(call: Promise<T>): Promise<{ value?: T; error?: unknown }> =>
  call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/** Runs the fake clock until `call` settles. */
export async function settle<T>(call: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  const settled = outcome(call);
  await jest.runAllTimersAsync();
  return settled;
}

/** The waits between the requests sent, in ms of the fake clock. */
export const waits = (api: FakeApi): number[] => api.sent.slice(1).map((sent, index) => sent.at - api.sent[index].at);
