import { defineConfig, isInteger, isOneOf, type EnvCheck } from '../../platform/config/index.js';

export type WebhooksConfig = ReturnType<typeof webhooksConfig>;

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000 } as const;
const DURATION = /^([1-9][0-9]*)([smh])$/;

/**
 * A wait of at most a day: with its jitter it fits the int the outbox schedules the next attempt with, and 20 of them
 * end well within the events' 30-day retention.
 */
const MAX_STEP_MS = 24 * UNIT_MS.h;

const stepMs = (step: string) => {
  const [, amount, unit] = DURATION.exec(step.trim())!;
  return Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
};

const isSchedule: EnvCheck = (value) =>
  value.split(',').every((step) => DURATION.test(step.trim()) && stepMs(step) <= MAX_STEP_MS) && value.split(',').length <= 20
    ? undefined
    : 'must be a comma-separated list of up to 20 durations of at most 24h, such as 5s,5m,2h';

/** The waits before each retry, as decided: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. */
const DEFAULT_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

export const webhooksConfig = defineConfig(
  'webhooks',
  {
    WEBHOOK_TIMEOUT_MS: isInteger(100, 60_000),
    WEBHOOK_RETRY_SCHEDULE: isSchedule,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: isOneOf('true', 'false'),
    WEBHOOK_POLL_INTERVAL_MS: isInteger(50, 60_000),
    WEBHOOK_CONCURRENCY: isInteger(1, 1_000),
    WEBHOOK_DELIVERY: isOneOf('true', 'false'),
  },
  () => ({
    /** An attempt succeeds on a 2xx within this time. */
    timeoutMs: Number(process.env.WEBHOOK_TIMEOUT_MS || 10_000),
    retryScheduleMs: (process.env.WEBHOOK_RETRY_SCHEDULE || DEFAULT_SCHEDULE).split(',').map(stepMs),
    /** Loopback and private receivers: tests and private deployments only. */
    allowPrivateTargets: process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
    /** How often an idle replica looks for events and due deliveries: the bound of an event's wait before its first attempt. */
    pollIntervalMs: Number(process.env.WEBHOOK_POLL_INTERVAL_MS || 500),
    /** Attempts a replica makes at once. */
    concurrency: Number(process.env.WEBHOOK_CONCURRENCY || 50),
    /** False: the replica writes events but delivers none, so delivery can run on replicas of its own. */
    delivers: process.env.WEBHOOK_DELIVERY !== 'false',
  }),
);
