import type { LimiterFacts, LimiterOutcome } from './limiter.store.js';

/** What both scripts start with: the subject's standing now, ending there for a suspended key (arguments, reply: LIMITER_SCRIPT). */
const STANDING = `
local subject = KEYS[1]
local also_read = KEYS[2] and redis.call('HGETALL', KEYS[2]) or false
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
`;

/**
 * The whole decision, one Lua script run atomically (EVALSHA): replicas together admit exactly the quota (docs/rate-limiting.md);
 * in-process.store.ts repeats it, a differential test holds them equal. KEYS: the subject's hash (hash-tagged), optionally a hash
 * also read whole (one Redis only). ARGV: now ms ('' = Redis's clock), per minute, per day, key id ('' = anonymous), ban threshold,
 * ban ms. Reply: outcome (0 admitted, 1 refused, 2 suspended), used minute, used day, now, suspended until, the hash also read.
 */
export const LIMITER_SCRIPT = `${STANDING}
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

/** The peek: the decision's reading without its writes, so a suspended key still learns it (3 read). */
export const LIMITER_PEEK_SCRIPT = `${STANDING}
return {3, used_minute, used_day, now, 0, also_read}
`;

const OUTCOMES: LimiterOutcome[] = ['admitted', 'refused', 'suspended', 'read'];

export function parseScriptReply(reply: unknown): Omit<LimiterFacts, 'store'> {
  const [outcome, usedMinute, usedDay, nowMs, suspendedUntilMs] = (reply as unknown[]).slice(0, 5).map(Number);
  const hash = (reply as unknown[])[5];
  if (!OUTCOMES[outcome] || [usedMinute, usedDay, nowMs, suspendedUntilMs].some((n) => !Number.isFinite(n))) {
    throw new Error(`Unexpected rate-limit script reply: ${JSON.stringify(reply)}`);
  }
  const facts = { outcome: OUTCOMES[outcome], usedMinute, usedDay, nowMs, suspendedUntilMs };
  return Array.isArray(hash) ? { ...facts, alsoRead: numbersOf(hash) } : facts;
}

/** A HGETALL reply, field, value, ...: the fields whose values are numbers. */
function numbersOf(hash: unknown[]): Record<string, number> {
  const numbers: Record<string, number> = {};
  for (let i = 0; i + 1 < hash.length; i += 2) {
    const value = Number(hash[i + 1]);
    if (Number.isFinite(value)) numbers[String(hash[i])] = value;
  }
  return numbers;
}
