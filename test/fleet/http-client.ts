import { Agent, request } from 'node:http';

/** Longest any request of the suite may take: past it, it is recorded as a failure (status 0). */
export const REQUEST_TIMEOUT_MS = 15_000;

/**
 * An idle connection is closed by this client after 5 s, before HAProxy's `timeout http-keep-alive`
 * (10 s, docker/haproxy.cfg) closes it: otherwise a request may go out on a connection the balancer
 * is closing at that moment, and get no answer (status 0, "on a reused connection").
 */
const IDLE_CLOSE_MS = 5_000;

export interface Answer {
  /** 0 when no HTTP answer came (connection refused or reset, or the timeout). */
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  ms: number;
  error?: string;
}

export interface Call {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * A plain HTTP client over keep-alive connections from one loopback source address, so a suite
 * can be several callers (127.0.0.2, 127.0.0.3, …) to a balancer on 127.0.0.1. Never throws: a
 * request that gets no answer within REQUEST_TIMEOUT_MS is an Answer with status 0.
 */
export class HttpClient {
  private readonly agent: Agent;

  constructor(
    private readonly base: string,
    private readonly localAddress = '127.0.0.1',
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: 128, timeout: IDLE_CLOSE_MS });
  }

  send({ method = 'GET', path, headers = {}, body }: Call): Promise<Answer> {
    const started = performance.now();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve) => {
      const done = (answer: Omit<Answer, 'ms'>) => resolve({ ...answer, ms: performance.now() - started });
      const outgoing = request(
        new URL(path, this.base),
        {
          method,
          agent: this.agent,
          localAddress: this.localAddress,
          timeout: REQUEST_TIMEOUT_MS,
          headers: payload === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('error', (error) => done({ status: 0, headers: {}, body: undefined, error: error.message }));
          response.on('end', () => done({ status: response.statusCode ?? 0, headers: response.headers, body: parse(text) }));
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      // A connection the balancer dropped unanswered while reusing it (what `http-reuse safe` leaves a
      // browser to retry) says so: it tells that race from a request that never got through.
      outgoing.on('error', (error) =>
        done({
          status: 0,
          headers: {},
          body: undefined,
          error: `${error.message}${outgoing.reusedSocket ? ' (on a reused connection)' : ''}`,
        }),
      );
      outgoing.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The API's Error object: `{code, message, status}` with the response's own status. */
export function isErrorObject(answer: Answer): boolean {
  const body = answer.body as { code?: unknown; message?: unknown; status?: unknown } | undefined;
  return typeof body?.code === 'string' && typeof body.message === 'string' && body.status === answer.status;
}

export const percentile = (values: number[], p: number): number =>
  Math.round([...values].sort((x, y) => x - y)[Math.max(0, Math.ceil(p * values.length) - 1)] ?? 0);

/** Counts of each status, as `{"200": 60, "429": 40}`. */
export const byStatus = (answers: Answer[]): Record<string, number> =>
  answers.reduce<Record<string, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
