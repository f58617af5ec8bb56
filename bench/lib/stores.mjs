// PostgreSQL and Redis for servers B, D and P: what answers, and the notes on what could not be run.
import { log } from './log.mjs';
import { databaseName, preparePostgres } from './postgres.mjs';
import { redisReachable } from './redis-calls.mjs';
import { SERVICE_PREFIX } from './servers.mjs';

/**
 * A given URL that does not answer is an error; a default one that does not answer only leaves out
 * what needs it (said in `notes`).
 * @param {{ databaseUrl: string, databaseGiven: boolean, redisUrl: string, redisGiven: boolean, notes: string[] }} options
 * @returns {Promise<{ postgres?: { version: string, created: boolean }, redisVersion?: string }>}
 */
export async function prepareStores({ databaseUrl, databaseGiven, redisUrl, redisGiven, notes }) {
  let postgres;
  try {
    postgres = await preparePostgres(databaseUrl, { create: !databaseGiven });
    log(
      `PostgreSQL ${postgres.version}: ${databaseGiven ? 'given' : 'default'} database "${databaseName(databaseUrl)}"${postgres.created ? ' (created)' : ''}`,
    );
  } catch (error) {
    if (databaseGiven) throw new Error(`DATABASE_URL cannot be used: ${String(error)}`, { cause: error });
    notes.push(`PostgreSQL at ${databaseUrl} is not reachable (${String(error)}): servers B and D were not run.`);
    log(notes.at(-1));
  }
  const redisVersion = await redisReachable(redisUrl);
  if (!redisVersion && redisGiven) throw new Error(`REDIS_URL ${redisUrl} does not answer`);
  if (redisVersion) {
    log(
      `Redis ${redisVersion} at ${redisUrl} (${redisGiven ? 'given by REDIS_URL' : 'the default, reachable'}), key prefix ${SERVICE_PREFIX}`,
    );
  } else {
    notes.push(
      `Redis at ${redisUrl} does not answer: B and D ran with the in-process limiter, Redis round trips not measured, the usual build (P) not run.`,
    );
    log(notes.at(-1));
  }
  if (postgres) {
    notes.push(
      `B and D use ${databaseGiven ? 'the given' : 'the default'} PostgreSQL database "${databaseName(databaseUrl)}"` +
        `${redisVersion ? ` and Redis ${redisUrl}` : ''}${databaseGiven ? '' : ' (its pets table is emptied and reseeded on every run)'}.`,
    );
  }
  return { postgres, redisVersion };
}
