import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { HttpClient, type Answer } from '../fleet/http-client.js';
import { sleep } from '../fleet/load.js';
import type { Summary } from '../fleet/metrics.js';
import { emptyDatabase, queryDatabase } from '../support/test-databases.js';
import { freePort, ServiceProcess } from '../support/service-process.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Replicas of the built service (`node dist/src/main.js`) delivering webhooks to receivers on loopback,
 * for the webhook suites of `npm run test:fleet` (test/webhooks/*.fleet-spec.ts). Not production mode:
 * there an endpoint's URL must be https://, and the receivers are plain HTTP on loopback. No Redis: each
 * replica limits in process, and the clients' quotas are never reached.
 */
const COMMAND_TIMEOUT_MS = 60_000;
const UNREACHED = ['--per-minute', '10000000', '--per-day', '1000000000'];
const SCOPES = 'pets:read,pets:write,webhooks:manage';

export const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

/**
 * Registers the hooks that start two replicas delivering with the webhook settings `env`, on a database
 * of their own (test/support/test-databases.ts), and `receivers`; and that stop them all, then print `summary`.
 */
export function twoReplicas(env: Record<string, string>, receivers: WebhookReceiver[], summary: Summary) {
  const fleet = { databaseUrl: '', replicas: [] as ServiceProcess[] };
  beforeAll(async () => {
    fleet.databaseUrl = await emptyDatabase();
    fleet.replicas = await Promise.all(
      [0, 1].map(
        async () =>
          new ServiceProcess(await freePort(), {
            DATABASE_URL: fleet.databaseUrl,
            DATABASE_QUERY_TIMEOUT_MS: '5000',
            ALLOWED_HOSTS: '127.0.0.1',
            SHUTDOWN_READINESS_DELAY_MS: '100',
            SHUTDOWN_GRACE_MS: '5000',
            LOG_LEVEL: 'warn',
            WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
            ...env,
          }),
      ),
    );
    // One after the other: the first applies the migrations.
    for (const replica of fleet.replicas) await replica.start();
    await Promise.all(receivers.map((receiver) => receiver.start()));
  }, 90_000);
  afterAll(async () => {
    await Promise.all(fleet.replicas.map((replica) => replica.kill()));
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    summary.print();
  });
  return fleet;
}

/** A new enterprise client with limits never reached, and a key that manages its webhooks, made by the command-line tool. */
export async function newClientKey(databaseUrl: string, name: string): Promise<{ key: string; clientId: number }> {
  const args = ['dist/src/cli.js', 'keys', 'create', '--plan', 'enterprise', '--name', name, ...UNREACHED, '--scopes', SCOPES, '--json'];
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args, {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: COMMAND_TIMEOUT_MS,
    });
    return JSON.parse(stdout) as { key: string; clientId: number };
  } catch (error) {
    const { stdout = '', stderr = '', message } = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`keys create failed (${message}):\n${stdout}${stderr}`, { cause: error });
  }
}

/** Subscribes `receiver` to `eventTypes` through the API, and has it verify with the endpoint's secret; the endpoint's id. */
export async function subscribe(replica: ServiceProcess, key: string, receiver: WebhookReceiver, eventTypes = ['pet.created']) {
  const client = new HttpClient(replica.url);
  try {
    const answer = await client.send({
      method: 'POST',
      path: '/v1/webhook-endpoints',
      headers: auth(key),
      body: { url: receiver.url, eventTypes },
    });
    if (answer.status !== 201) throw new Error(`endpoint not created: ${answer.status} ${JSON.stringify(answer.body)}`);
    const { id, secret } = answer.body as { id: number; secret: string };
    receiver.secrets.push(secret);
    return id;
  } finally {
    client.close();
  }
}

export interface Burst {
  /** Every answer, with the replica it went to. */
  answers: Array<Answer & { replica: number }>;
  /** The ids of the animals answered 201. */
  created: number[];
  startedAt: number;
  endedAt: number;
}

/**
 * `count` creations answered 201 (POST /v1/pets), `workers` at a time, spread in turn over the replicas
 * `live()` names at each request. A request that gets no answer (its replica died) is not sent again:
 * its animal may or may not have been committed, and the pets table tells. `onCreated` sees each 201's
 * running count. Times are `Date.now()`, the receivers' clock.
 */
export async function createPets(
  processes: ServiceProcess[],
  live: () => number[],
  {
    key,
    count,
    workers,
    paceMs = 0,
    onCreated = () => undefined,
  }: { key: string; count: number; workers: number; paceMs?: number; onCreated?: (n: number) => unknown },
): Promise<Burst> {
  const clients = processes.map((replica) => new HttpClient(replica.url));
  const burst: Burst = { answers: [], created: [], startedAt: Date.now(), endedAt: 0 };
  let sent = 0;
  let turn = 0;
  const deadline = performance.now() + 120_000;
  try {
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (sent < count && performance.now() < deadline) {
          const replicas = live();
          if (replicas.length === 0) {
            await sleep(20);
            continue;
          }
          const replica = replicas[turn++ % replicas.length];
          sent += 1;
          const answer = await clients[replica].send({
            method: 'POST',
            path: '/v1/pets',
            headers: auth(key),
            body: { name: `Burst ${sent}`, categoryId: 1 },
          });
          burst.answers.push({ ...answer, replica });
          if (answer.status === 201) {
            burst.created.push((answer.body as { id: number }).id);
            await onCreated(burst.created.length);
          } else sent -= 1; // sent again, until `count` were answered 201
          if (answer.status === 0) await sleep(20);
          if (paceMs > 0) await sleep(paceMs);
        }
      }),
    );
  } finally {
    for (const client of clients) client.close();
  }
  burst.endedAt = Date.now();
  return burst;
}

/** The ids of every animal in the pets table: every committed creation, answered or not. */
export async function committedPets(url: string): Promise<number[]> {
  return (await queryDatabase<{ id: string }>(url, 'SELECT id FROM pets ORDER BY id')).map((row) => Number(row.id));
}

/** The animals' ids whose pet.created has not reached `receiver` (by the event's data.id). */
export function notArrived(receiver: WebhookReceiver, ids: number[]): number[] {
  const arrived = new Set([...receiver.events('pet.created').values()].map(({ event }) => Number(event.data.id)));
  return ids.filter((id) => !arrived.has(id));
}

/** Polls until `done()` or `boundMs`; true when it was done. */
export async function until(done: () => boolean | Promise<boolean>, boundMs: number, everyMs = 100): Promise<boolean> {
  const started = performance.now();
  while (!(await done())) {
    if (performance.now() - started > boundMs) return false;
    await sleep(everyMs);
  }
  return true;
}
