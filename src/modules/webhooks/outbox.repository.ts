import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TransactionHost } from '../../platform/database/index.js';
import { COLLECT_PET_FEED, OLDEST_PAST_CURSOR } from './migrations/1798416000000-webhook-pet-feed.js';
import type { OutboxEvent } from './webhook-event.js';

/** A delivery a replica has claimed: until its lease ends, no other replica attempts it. */
export interface ClaimedDelivery {
  id: number;
  attempt: number;
  retriesLeft: number;
  eventId: string;
  eventType: string;
  body: string;
  endpointId: number;
  url: string;
  /** The current secret first, then the previous one during a rotation's overlap. */
  secrets: string[];
}

/** What an attempt came to; `retryInMs` undefined means no retry is left (or it succeeded). */
export interface AttemptOutcome {
  delivery: ClaimedDelivery;
  succeeded: boolean;
  retryInMs?: number;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Failing this long without a success disables an endpoint (docs/contract/decisions.md). */
const DISABLE_AFTER = '5 days';

/**
 * The outbox's statements. Plain SQL, as each is one round trip that TypeORM's builders cannot express
 * (`FOR UPDATE SKIP LOCKED` in data-modifying CTEs): replicas share the work without ever attempting one
 * delivery at the same time.
 */
@Injectable()
export class OutboxRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly txHost: TransactionHost,
  ) {}

  /** In the caller's transaction; false when an event of the same `onceKey` was already written. */
  async write({ id, type, audience, body, onceKey }: OutboxEvent): Promise<boolean> {
    const rows = await this.txHost.tx.query<unknown[]>(
      `INSERT INTO webhook_events (id, type, client_id, endpoint_id, body, once_key) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (once_key) WHERE once_key IS NOT NULL DO NOTHING RETURNING id`,
      [
        id,
        type,
        'clientId' in audience ? audience.clientId : null,
        'endpointId' in audience ? audience.endpointId : null,
        body,
        onceKey ?? null,
      ],
    );
    return rows.length > 0;
  }

  /**
   * Writes the `pet.created` events of up to `limit` new animals (migration 1798416000000), then turns up to
   * `limit` new events into one due delivery per endpoint that received them when they happened; the larger number taken.
   */
  async dispatch(limit: number, retries: number): Promise<number> {
    const collected = (await this.dataSource.query<unknown[]>(COLLECT_PET_FEED, [limit])).length;
    const [, dispatched] = await this.dataSource.query<[unknown[], number]>(
      `WITH events AS (
         SELECT id, type, client_id, endpoint_id, created_at FROM webhook_events WHERE dispatched_at IS NULL
         ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED
       ), fanned AS (
         INSERT INTO webhook_deliveries (event_id, endpoint_id, retries_left, next_attempt_at)
         SELECT e.id, w.id, $2, now() FROM events e JOIN webhook_endpoints w ON CASE
           WHEN e.endpoint_id IS NOT NULL THEN w.id = e.endpoint_id
           ELSE w.enabled AND e.type = ANY (w.event_types) AND (e.client_id IS NULL OR w.client_id = e.client_id)
             AND w.created_at <= e.created_at END
         ON CONFLICT (event_id, endpoint_id) DO NOTHING
       )
       UPDATE webhook_events SET dispatched_at = now() WHERE id IN (SELECT id FROM events) RETURNING id`,
      [limit, retries],
    );
    return Math.max(collected, dispatched);
  }

  /** Up to `limit` due deliveries to enabled endpoints, leased for `leaseMs`: a replica that dies mid-attempt hands them on then. */
  async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    // TypeORM answers an UPDATE with its rows and their count.
    const [rows] = await this.dataSource.query<[Array<Record<string, string | number | null>>, number]>(
      `UPDATE webhook_deliveries d SET attempts = d.attempts + 1, leased_until = now() + $2 * interval '1 millisecond'
       FROM webhook_events e, webhook_endpoints w
       WHERE d.id IN (
         SELECT d2.id FROM webhook_deliveries d2 JOIN webhook_endpoints w2 ON w2.id = d2.endpoint_id
         WHERE d2.state = 'pending' AND d2.next_attempt_at <= now() AND (d2.leased_until IS NULL OR d2.leased_until <= now()) AND w2.enabled
         ORDER BY d2.next_attempt_at LIMIT $1 FOR UPDATE OF d2 SKIP LOCKED
       ) AND e.id = d.event_id AND w.id = d.endpoint_id
       RETURNING d.id, d.attempts, d.retries_left, e.id AS event_id, e.type, e.body, w.id AS endpoint_id, w.url, w.secret,
         CASE WHEN w.previous_secret_until > now() THEN w.previous_secret END AS previous_secret`,
      [limit, leaseMs],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      attempt: Number(row.attempts),
      retriesLeft: Number(row.retries_left),
      eventId: String(row.event_id),
      eventType: String(row.type),
      body: String(row.body),
      endpointId: Number(row.endpoint_id),
      url: String(row.url),
      secrets: [String(row.secret), ...(row.previous_secret === null ? [] : [String(row.previous_secret)])],
    }));
  }

  /**
   * The attempts' records, their deliveries' next states, and their endpoints' failing streaks, in one statement
   * for a batch (one round trip, where a statement per attempt made the replicas queue on the pool and on the
   * endpoints' rows). An endpoint's row is written only when its streak changes: a success clears it, a failure
   * after the last success starts it, and a failure 5 days into it disables the endpoint.
   */
  async record(outcomes: readonly AttemptOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const column = <T>(value: (outcome: AttemptOutcome) => T) => outcomes.map(value);
    await this.dataSource.query(
      `WITH outcome AS (
         SELECT * FROM unnest($1::bigint[], $2::varchar[], $3::int[], $4::bigint[], $5::varchar[], $6::varchar[], $7::int[],
           $8::timestamptz[], $9::int[], $10::varchar[], $11::int[], $12::boolean[])
           AS o (id, state, retry_ms, endpoint_id, event_id, event_type, attempt, attempted_at, status_code, error, duration_ms, succeeded)
       ), delivery AS (
         UPDATE webhook_deliveries d SET state = o.state, retries_left = GREATEST(d.retries_left - 1, 0), leased_until = NULL,
           next_attempt_at = CASE WHEN o.state = 'pending' THEN now() + o.retry_ms * interval '1 millisecond' ELSE d.next_attempt_at END
         FROM outcome o WHERE d.id = o.id
       ), attempt AS (
         INSERT INTO webhook_attempts (endpoint_id, event_id, event_type, attempt, attempted_at, status_code, error, duration_ms)
         SELECT endpoint_id, event_id, event_type, attempt, attempted_at, status_code, error, duration_ms FROM outcome ORDER BY attempted_at
       ), last_success AS (
         SELECT endpoint_id, max(attempted_at) FILTER (WHERE succeeded) AS at FROM outcome GROUP BY endpoint_id
       ), streak AS (
         SELECT s.endpoint_id, s.at IS NOT NULL AS succeeded,
           min(o.attempted_at) FILTER (WHERE NOT o.succeeded AND (s.at IS NULL OR o.attempted_at > s.at)) AS failed_at
         FROM last_success s JOIN outcome o USING (endpoint_id) GROUP BY s.endpoint_id, s.at
       ), change AS (
         SELECT w.id, CASE WHEN s.succeeded THEN s.failed_at ELSE COALESCE(w.failing_since, s.failed_at) END AS failing_since,
           NOT s.succeeded AND COALESCE(w.failing_since <= now() - interval '${DISABLE_AFTER}', false) AS expired
         FROM streak s JOIN webhook_endpoints w ON w.id = s.endpoint_id
       )
       UPDATE webhook_endpoints w SET failing_since = c.failing_since, enabled = enabled AND NOT c.expired,
         disabled_reason = CASE WHEN c.expired THEN 'Every delivery failed for ${DISABLE_AFTER}.' ELSE disabled_reason END
       FROM change c WHERE w.id = c.id AND (c.expired OR w.failing_since IS DISTINCT FROM c.failing_since)`,
      [
        column(({ delivery }) => delivery.id),
        column(({ succeeded, retryInMs }) => (succeeded ? 'succeeded' : retryInMs === undefined ? 'failed' : 'pending')),
        column(({ retryInMs }) => retryInMs ?? 0),
        column(({ delivery }) => delivery.endpointId),
        column(({ delivery }) => delivery.eventId),
        column(({ delivery }) => delivery.eventType),
        column(({ delivery }) => delivery.attempt),
        column(({ attemptedAt }) => attemptedAt),
        column(({ statusCode }) => statusCode),
        column(({ error }) => error),
        column(({ durationMs }) => durationMs),
        column(({ succeeded }) => succeeded),
      ],
    );
  }

  /** Makes the event's delivery to the endpoint due now, for one attempt more; false when it never had one. */
  async redeliver(endpointId: number, eventId: string): Promise<boolean> {
    const [, updated] = await this.txHost.tx.query<[unknown[], number]>(
      `UPDATE webhook_deliveries SET next_attempt_at = now(),
         retries_left = CASE WHEN state = 'pending' THEN retries_left ELSE 0 END, state = 'pending'
       WHERE endpoint_id = $1 AND event_id = $2 RETURNING id`,
      [endpointId, eventId],
    );
    return updated > 0;
  }

  /** Deliveries waiting, and how long the oldest due one (or the oldest event, or new animal, not yet fanned out) has waited, in seconds. */
  async backlog(): Promise<{ pending: number; lagSeconds: number }> {
    const [row] = await this.dataSource.query<Array<{ pending: string; lag: string | null }>>(
      `SELECT (SELECT count(*) FROM webhook_deliveries WHERE state = 'pending') AS pending,
         extract(epoch FROM now() - LEAST(
           (SELECT min(d.next_attempt_at) FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
             WHERE d.state = 'pending' AND d.next_attempt_at <= now() AND w.enabled),
           (SELECT min(created_at) FROM webhook_events WHERE dispatched_at IS NULL),
           (${OLDEST_PAST_CURSOR}))) AS lag`,
    );
    return { pending: Number(row.pending), lagSeconds: Math.max(0, Number(row.lag ?? 0)) };
  }

  /** Events (with their deliveries) and attempts older than `days`; the number of rows deleted. */
  async purge(days: number): Promise<number> {
    const [events, attempts] = await Promise.all([
      this.dataSource.query<[unknown[], number]>(`DELETE FROM webhook_events WHERE created_at < now() - $1::int * interval '1 day'`, [
        days,
      ]),
      this.dataSource.query<[unknown[], number]>(`DELETE FROM webhook_attempts WHERE attempted_at < now() - $1::int * interval '1 day'`, [
        days,
      ]),
    ]);
    return events[1] + attempts[1];
  }
}
