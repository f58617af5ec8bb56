import type { LimiterFacts, LimiterOutcome, LimiterRequest } from './limiter.store.js';

/**
 * The whole rate-limit decision, in one Lua script that Redis runs with EVALSHA (atomically, so
 * any number of replicas admit exactly the quota). The in-process store (in-process.store.ts)
 * implements the same rules again in TypeScript: two implementations, held equal by a
 * differential property test (test/redis-limiter-differential.int-spec.ts) that runs random
 * request sequences through both and compares every decision. A change to the rules here is a
 * change there too, and that test fails until both agree.
 *
 * KEYS[1]  the subject's hash (a client, or an IP address), hash-tagged for Redis Cluster
 * KEYS[2]  optional: a key read in the same round trip for another module (the read cache's
 *          generation); only on a single Redis, since on a Cluster it lives in another slot
 * ARGV[1]  now in ms, or '' to take Redis's own clock (one clock for every replica)
 * ARGV[2]  per-minute limit          ARGV[3]  per-day limit
 * ARGV[4]  API key id, or '' for an anonymous caller (limited, never suspended)
 * ARGV[5]  refusals in one minute that suspend the key     ARGV[6]  suspension in ms
 *
 * The hash holds the current minute and day with their counts, and per key its suspension end
 * and its refusals in the current minute. A request is admitted only if both windows have room
 * and then counts in both; a refused one counts in neither, but as a strike of its key, and the
 * strike that reaches the threshold suspends the key from the next request on. Requests during a
 * suspension count nothing and do not extend it.
 *
 * Reply: { outcome (0 admitted, 1 refused, 2 suspended), used in minute, used in day, now ms,
 *          suspended until ms (0 when not suspended), the number at KEYS[2] (-1 without KEYS[2]) }
 */
export const LIMITER_SCRIPT = `
local subject = KEYS[1]
local also_read = KEYS[2] and (tonumber(redis.call('GET', KEYS[2])) or 0) or -1
local now = tonumber(ARGV[1])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local per_minute, per_day = tonumber(ARGV[2]), tonumber(ARGV[3])
local key_id, threshold, ban_ms = ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6])
local minute, day = math.floor(now / 60000), math.floor(now / 86400000)
local ban_field, strike_minute_field, strikes_field = 'b:' .. key_id, 's:' .. key_id, 'c:' .. key_id

local v = redis.call('HMGET', subject, 'm', 'mc', 'd', 'dc', ban_field, strike_minute_field, strikes_field)
local used_minute = (tonumber(v[1]) == minute) and tonumber(v[2]) or 0
local used_day = (tonumber(v[3]) == day) and tonumber(v[4]) or 0
local banned_until = tonumber(v[5]) or 0
local keep_until = math.max((day + 1) * 86400000, banned_until)

if key_id ~= '' and banned_until > now then
  return {2, used_minute, used_day, now, banned_until, also_read}
end

if used_minute < per_minute and used_day < per_day then
  used_minute, used_day = used_minute + 1, used_day + 1
  redis.call('HSET', subject, 'm', minute, 'mc', used_minute, 'd', day, 'dc', used_day)
  redis.call('PEXPIREAT', subject, keep_until)
  return {0, used_minute, used_day, now, 0, also_read}
end

if key_id ~= '' then
  local strikes = ((tonumber(v[6]) == minute) and tonumber(v[7]) or 0) + 1
  if strikes >= threshold then
    banned_until = now + ban_ms
    keep_until = math.max(keep_until, banned_until)
  end
  redis.call('HSET', subject, strike_minute_field, minute, strikes_field, strikes, ban_field, banned_until)
  redis.call('PEXPIREAT', subject, keep_until)
end
return {1, used_minute, used_day, now, 0, also_read}
`;

const OUTCOMES: LimiterOutcome[] = ['admitted', 'refused', 'suspended'];

export function scriptArguments(request: LimiterRequest, nowMs: number | undefined): string[] {
  return [
    nowMs === undefined ? '' : String(nowMs),
    String(request.limits.perMinute),
    String(request.limits.perDay),
    request.keyId === undefined ? '' : String(request.keyId),
    String(request.ban.threshold),
    String(request.ban.durationMs),
  ];
}

export function parseScriptReply(reply: unknown): LimiterFacts {
  const [outcome, usedMinute, usedDay, nowMs, suspendedUntilMs, alsoRead = -1] = (reply as unknown[]).map(Number);
  if (!OUTCOMES[outcome] || [usedMinute, usedDay, nowMs, suspendedUntilMs, alsoRead].some((n) => !Number.isFinite(n))) {
    throw new Error(`Unexpected rate-limit script reply: ${JSON.stringify(reply)}`);
  }
  return { outcome: OUTCOMES[outcome], usedMinute, usedDay, nowMs, suspendedUntilMs, ...(alsoRead >= 0 && { alsoRead }) };
}
