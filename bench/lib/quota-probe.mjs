/* global fetch */
// What a caller at and over its quota sees from a server, read on the wire and in Redis: the
// quota headers each answer carries, whether requests the router or the body parser refuse
// (404, 405, 413, 415) carry them, count, or come before the 429, which headers the 429 itself
// carries, and whether a refused request still counts. The counts are read from the server's own
// Redis keys (`counters`), before and after each step.
import { setTimeout as sleep } from 'node:timers/promises';

/** Headers that tell a caller about its quota. */
const QUOTA_HEADER = /^(x-ratelimit-|ratelimit|retry-after)/i;

/** Requests the router or the body parser refuses, each sent with a valid key. */
export const PROBES = [
  { name: 'unknownRoute', label: 'GET /v1/no-such-route', method: 'GET', path: '/v1/no-such-route' },
  { name: 'wrongMethod', label: 'DELETE /v1/pets', method: 'DELETE', path: '/v1/pets' },
  {
    name: 'tooLarge',
    label: 'POST /v1/pets, 200 KB JSON',
    method: 'POST',
    path: '/v1/pets',
    contentType: 'application/json',
    body: JSON.stringify({ name: 'Rex', categoryId: 1, note: 'x'.repeat(200_000) }),
  },
  { name: 'wrongType', label: 'POST /v1/pets, text/plain', method: 'POST', path: '/v1/pets', contentType: 'text/plain', body: 'Rex' },
];
const LIST = { label: 'GET /v1/pets?limit=20', method: 'GET', path: '/v1/pets?limit=20' };
/** Refused requests sent after the first 429, to see whether they count. */
const EXTRA_REFUSALS = 5;

/** One request: its status, the quota headers' names (as sent, in order) and values. */
async function send(base, key, { method, path, contentType, body }) {
  const headers = { authorization: `Bearer ${key}`, ...(contentType && { 'content-type': contentType }) };
  const response = await fetch(`${base}${path}`, { method, headers, body });
  await response.arrayBuffer();
  const quota = Object.fromEntries([...response.headers].filter(([name]) => QUOTA_HEADER.test(name)));
  return { status: response.status, quotaHeaders: quota };
}

const delta = (after, before) => ({ minute: after.minute - before.minute, day: after.day - before.day });

/** Waits for the next UTC minute when less than `margin` s are left of this one. */
async function awayFromMinuteEnd(margin = 15) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < margin * 1000) await sleep(left + 1_000);
}

async function probeAll(base, key, counters) {
  const rows = [];
  for (const probe of PROBES) {
    const before = await counters();
    const answer = await send(base, key, probe);
    rows.push({ probe: probe.name, label: probe.label, ...answer, counted: delta(await counters(), before) });
  }
  return rows;
}

/**
 * A fresh key on a plan of `perMinute` requests per minute: the probes while it has room, then
 * list requests up to the first 429 and `EXTRA_REFUSALS` more, then the probes again.
 * @param {{ base: string, key: string, perMinute: number, counters: () => Promise<{ minute: number, day: number }> }} options
 */
export async function probeMinuteQuota({ base, key, perMinute, counters }) {
  await awayFromMinuteEnd();
  const withRoom = await probeAll(base, key, counters);
  const first = await send(base, key, LIST);
  let admitted = first.status === 200 ? 1 : 0;
  let refusal;
  for (let i = 0; i < 2 * perMinute && !refusal; i++) {
    const answer = await send(base, key, LIST);
    if (answer.status === 429) refusal = answer;
    else if (answer.status === 200) admitted += 1;
    else throw new Error(`${LIST.label} answered ${answer.status} before the quota was reached`);
  }
  if (!refusal) throw new Error(`no 429 after ${2 * perMinute} requests on a plan of ${perMinute} per minute`);
  const beforeExtra = await counters();
  for (let i = 0; i < EXTRA_REFUSALS; i++) {
    const answer = await send(base, key, LIST);
    if (answer.status !== 429) throw new Error(`refused request ${i + 1} answered ${answer.status}`);
  }
  const refusedCounted = delta(await counters(), beforeExtra);
  const overQuota = await probeAll(base, key, counters);
  return {
    perMinute,
    withRoom,
    admitted,
    firstStatus: first.status,
    firstHeaders: first.quotaHeaders,
    refusal,
    extraRefusals: EXTRA_REFUSALS,
    refusedCounted,
    overQuota,
  };
}

/**
 * A fresh key whose day quota (`perDay`) is smaller than its minute quota: `perDay + 2` list
 * requests, so the last two are refused by the day; how much each window counted.
 * @param {{ base: string, key: string, perDay: number, counters: () => Promise<{ minute: number, day: number }> }} options
 */
export async function probeDayQuota({ base, key, perDay, counters }) {
  await awayFromMinuteEnd();
  const before = await counters();
  const statuses = [];
  let refusal;
  for (let i = 0; i < perDay + 2; i++) {
    const answer = await send(base, key, LIST);
    statuses.push(answer.status);
    if (answer.status === 429) refusal ??= answer;
  }
  return { perDay, statuses, refusal, counted: delta(await counters(), before) };
}

/**
 * Both probes against each server, each with fresh keys from `createKey(plan args)`.
 * @param {{ createKey: (args: string[]) => Promise<{ key: string, clientId: string }>,
 *           servers: Array<{ name: string, base: string, counters: (created: { key: string, clientId: string }) => () => Promise<{ minute: number, day: number }> }>,
 *           free: { args: string[], perMinute: number }, smallDay: { args: string[], perDay: number } }} options
 */
export async function compareQuotas({ createKey, servers, free, smallDay }) {
  const result = {};
  for (const server of servers) {
    const freeKey = await createKey(free.args);
    const dayKey = await createKey(smallDay.args);
    result[server.name] = {
      minute: await probeMinuteQuota({
        base: server.base,
        key: freeKey.key,
        perMinute: free.perMinute,
        counters: server.counters(freeKey),
      }),
      day: await probeDayQuota({ base: server.base, key: dayKey.key, perDay: smallDay.perDay, counters: server.counters(dayKey) }),
    };
  }
  return result;
}
