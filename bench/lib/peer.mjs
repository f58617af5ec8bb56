// The service against the usual build (bench/peers/usual-build): the per-round throughput and p99
// ratios, where each keeps its counts in Redis, and the lines the report prints about both.
import { createHash } from 'node:crypto';
import { spread } from './stats.mjs';

const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const count = (value) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en') : 'n/a');

/**
 * Per round (the two servers were loaded one right after the other): service req/s / peer req/s
 * and service p99 / peer p99, with the median and the range over the rounds.
 */
export function serviceVsPeer(serviceRuns, peerRuns) {
  const rounds = serviceRuns.map((service, i) => {
    const peer = peerRuns[i];
    return {
      serviceRps: service.rps,
      peerRps: peer.rps,
      rpsRatio: service.rps / peer.rps,
      serviceP99: service.p99,
      peerP99: peer.p99,
      p99Ratio: service.p99 / peer.p99,
    };
  });
  const of = (field) => spread(rounds.map((round) => round[field]));
  return {
    rounds,
    rpsRatio: of('rpsRatio'),
    p99Ratio: of('p99Ratio'),
    serviceRps: of('serviceRps'),
    peerRps: of('peerRps'),
    serviceP99: of('serviceP99'),
    peerP99: of('peerP99'),
  };
}

const range = (s, format) => `${format(s.median)} (rounds ${format(s.min)} to ${format(s.max)})`;

export function serviceVsPeerLines(comparison) {
  return [
    ...comparison.rounds.map(
      (round, i) =>
        `round ${i + 1}: service ${count(round.serviceRps)} req/s, p99 ${fixed(round.serviceP99)} ms; usual build ${count(round.peerRps)} req/s, ` +
        `p99 ${fixed(round.peerP99)} ms; service/peer req/s ${fixed(round.rpsRatio)}, p99 ${fixed(round.p99Ratio)}`,
    ),
    `median service/peer req/s ${range(comparison.rpsRatio, fixed)}; p99 ${range(comparison.p99Ratio, fixed)}`,
    `median req/s: service ${range(comparison.serviceRps, count)}, usual build ${range(comparison.peerRps, count)}; ` +
      `median p99 ms: service ${range(comparison.serviceP99, fixed)}, usual build ${range(comparison.peerP99, fixed)}`,
  ];
}

/** The service's counts of a client: fields `mc` and `dc` of its limiter hash (src/rate-limit/limiter.script.ts). */
export const serviceCounters = (redis, prefix) => (created) => async () => {
  const [minute, day] = await redis.hmget(`${prefix}rl:{c:${created.clientId}}`, 'mc', 'dc');
  return { minute: Number(minute ?? 0), day: Number(day ?? 0) };
};

/** The usual build's hit counters of a key: its throttlers' tracker is the key's SHA-256. */
export const peerCounters = (redis, prefix) => (created) => async () => {
  const tracker = createHash('sha256').update(created.key).digest('hex');
  const [minute, day] = await redis.mget(`${prefix}{${tracker}:minute}:hits`, `${prefix}{${tracker}:day}:hits`);
  return { minute: Number(minute ?? 0), day: Number(day ?? 0) };
};

const SERVERS = [
  ['service', 'service'],
  ['peer', 'usual build'],
];
const names = (headers) => Object.keys(headers ?? {}).join(', ') || 'none';
const counted = (c) => `minute +${c.minute}, day +${c.day}`;

/** What the quota probes found, one line per question, the service and the usual build side by side. */
export function quotaLines(quota) {
  const both = (describe) => SERVERS.map(([key, label]) => `${label}: ${describe(quota[key])}`).join('; ');
  const lines = [
    `quota headers on a 200 — ${both((q) => names(q.minute.firstHeaders))}`,
    `quota headers on the 429 after a free key's ${quota.service.minute.perMinute} per minute — ${both((q) => `${names(q.minute.refusal.quotaHeaders)} (${q.minute.admitted} admitted first)`)}`,
    `${quota.service.minute.extraRefusals} more refused requests counted — ${both((q) => counted(q.minute.refusedCounted))}`,
  ];
  quota.service.minute.withRoom.forEach((probe, i) => {
    lines.push(
      `${probe.label} — ${both((q) => {
        const room = q.minute.withRoom[i];
        const over = q.minute.overQuota[i];
        return (
          `${room.status} ${Object.keys(room.quotaHeaders).length ? 'with' : 'without'} quota headers, counted ${counted(room.counted)}; ` +
          `over quota ${over.status}${over.status === 429 ? ` (${names(over.quotaHeaders)})` : ''}`
        );
      })}`,
    );
  });
  lines.push(
    `a day quota of ${quota.service.day.perDay} below the minute's, ${quota.service.day.statuses.length} requests — ${both(
      (q) => `${q.day.statuses.join(' ')}, counted ${counted(q.day.counted)}, 429 headers ${names(q.day.refusal?.quotaHeaders)}`,
    )}`,
  );
  return lines;
}
