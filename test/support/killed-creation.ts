import pg from 'pg';
import type { ServiceProcess } from './service-process.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const RETRY_EVERY_MS = 100;
const GIVE_UP_MS = 15_000;

export interface Retried {
  /** From the kill: the last retry answered 409, the retry that got through (sent, answered). */
  last409Ms?: number;
  admittedMs: number;
  answeredMs: number;
  status: number;
  body: { id?: number };
}

/** Sends `request` to `replica` every 100 ms while it answers 409; times are from `since`. */
export async function retryWhileConflicting(
  replica: ServiceProcess,
  request: { headers: Record<string, string>; body: object },
  since: number,
): Promise<Retried> {
  let last409Ms: number | undefined;
  for (;;) {
    const sentAt = performance.now() - since;
    const response = await postPet(replica, request);
    if (response.status !== 409) {
      return {
        last409Ms,
        admittedMs: sentAt,
        answeredMs: performance.now() - since,
        status: response.status,
        body: (await response.json()) as Retried['body'],
      };
    }
    last409Ms = sentAt;
    if (sentAt > GIVE_UP_MS) throw new Error(`still 409 ${Math.round(sentAt)} ms after the kill`);
    await sleep(RETRY_EVERY_MS);
  }
}

export function postPet(replica: ServiceProcess, { headers, body }: { headers: Record<string, string>; body: object }): Promise<Response> {
  return fetch(`${replica.url}/v1/pets`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * A replica killed in the middle of a creation, against real processes. A session of the test's
 * own (on `databaseUrl`, straight to PostgreSQL) locks the `pets` table, so `first`'s INSERT waits
 * inside PostgreSQL; `first` is SIGKILLed there, and the table unlocked `lockHeldMs` after the kill.
 * Meanwhile the same request is retried on `second` while it answers 409. Reports, from the kill,
 * when PostgreSQL ended the killed replica's backend, and how the retry went.
 */
export async function killMidCreation({
  first,
  second,
  databaseUrl,
  request,
  lockHeldMs,
}: {
  first: ServiceProcess;
  second: ServiceProcess;
  databaseUrl: string;
  request: { headers: Record<string, string>; body: object };
  lockHeldMs: number;
}): Promise<Retried & { backendEndedMs: number }> {
  const [locker, watcher] = [new pg.Client(databaseUrl), new pg.Client(databaseUrl)];
  await Promise.all([locker.connect(), watcher.connect()]);
  try {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE pets IN EXCLUSIVE MODE');
    void postPet(first, request).catch(() => undefined);
    const waiting = `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO pets %'`;
    let backend: number | undefined;
    for (let waited = 0; backend === undefined; waited += 20) {
      if (waited > 10_000) throw new Error('the creation never reached its INSERT');
      backend = (await watcher.query<{ pid: number }>(waiting)).rows[0]?.pid;
      if (backend === undefined) await sleep(20);
    }

    await first.kill();
    const killed = performance.now();
    const unlocked = sleep(lockHeldMs).then(() => locker.query('COMMIT'));
    const backendEnded = (async () => {
      while ((await watcher.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [backend])).rowCount) await sleep(20);
      return performance.now() - killed;
    })();
    const retried = await retryWhileConflicting(second, request, killed);
    await unlocked;
    return { ...retried, backendEndedMs: await backendEnded };
  } finally {
    await Promise.all([locker.end(), watcher.end()]);
  }
}
