import { validateEnvironment } from '../../platform/config/index.js';
import { webhooksConfig } from './webhooks.config.js';

describe('webhooksConfig', () => {
  const validate = validateEnvironment([webhooksConfig]);
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });
  const NAMES = [
    'WEBHOOK_TIMEOUT_MS',
    'WEBHOOK_RETRY_SCHEDULE',
    'WEBHOOK_ALLOW_PRIVATE_TARGETS',
    'WEBHOOK_POLL_INTERVAL_MS',
    'WEBHOOK_CONCURRENCY',
    'WEBHOOK_DELIVERY',
  ];

  it('defaults to the decided schedule and timeout, private targets refused, delivering', () => {
    for (const name of NAMES) delete process.env[name];
    expect(webhooksConfig()).toEqual({
      timeoutMs: 10_000,
      retryScheduleMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      allowPrivateTargets: false,
      pollIntervalMs: 500,
      concurrency: 50,
      delivers: true,
    });
  });

  it('reads good values', () => {
    const env = {
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_RETRY_SCHEDULE: '1s, 2m ,3h',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_CONCURRENCY: '5',
      WEBHOOK_DELIVERY: 'false',
    };
    expect(() => validate(env)).not.toThrow();
    Object.assign(process.env, env);
    expect(webhooksConfig()).toEqual({
      timeoutMs: 1_000,
      retryScheduleMs: [1_000, 120_000, 10_800_000],
      allowPrivateTargets: true,
      pollIntervalMs: 50,
      concurrency: 5,
      delivers: false,
    });
  });

  it.each([
    [{ WEBHOOK_TIMEOUT_MS: '99' }, /WEBHOOK_TIMEOUT_MS must be an integer from 100 to 60000 \(got "99"\)/],
    [{ WEBHOOK_TIMEOUT_MS: '60001' }, /WEBHOOK_TIMEOUT_MS must be an integer from 100 to 60000/],
    [{ WEBHOOK_TIMEOUT_MS: '1e4' }, /WEBHOOK_TIMEOUT_MS must be an integer/],
    [{ WEBHOOK_RETRY_SCHEDULE: '5' }, /WEBHOOK_RETRY_SCHEDULE must be a comma-separated list/],
    [{ WEBHOOK_RETRY_SCHEDULE: '0s' }, /WEBHOOK_RETRY_SCHEDULE must be/],
    [{ WEBHOOK_RETRY_SCHEDULE: '5d' }, /WEBHOOK_RETRY_SCHEDULE must be/],
    [{ WEBHOOK_RETRY_SCHEDULE: '5s,,5m' }, /WEBHOOK_RETRY_SCHEDULE must be/],
    [{ WEBHOOK_RETRY_SCHEDULE: '5s;5m' }, /WEBHOOK_RETRY_SCHEDULE must be/],
    [{ WEBHOOK_RETRY_SCHEDULE: '-5s' }, /WEBHOOK_RETRY_SCHEDULE must be/],
    [{ WEBHOOK_RETRY_SCHEDULE: Array(21).fill('1s').join(',') }, /WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of up to 20/],
    // A wait past a day: its delay, with jitter, would not fit the int the outbox computes the next attempt with.
    [{ WEBHOOK_RETRY_SCHEDULE: '5s,25h' }, /WEBHOOK_RETRY_SCHEDULE must be/],
    [{ WEBHOOK_RETRY_SCHEDULE: '600h' }, /WEBHOOK_RETRY_SCHEDULE must be/],
    [{ WEBHOOK_RETRY_SCHEDULE: '86401s' }, /WEBHOOK_RETRY_SCHEDULE must be/],
    [{ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' }, /WEBHOOK_ALLOW_PRIVATE_TARGETS must be one of true, false \(got "yes"\)/],
    [{ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'TRUE' }, /WEBHOOK_ALLOW_PRIVATE_TARGETS must be one of true, false/],
    [{ WEBHOOK_POLL_INTERVAL_MS: '49' }, /WEBHOOK_POLL_INTERVAL_MS must be an integer from 50 to 60000/],
    [{ WEBHOOK_CONCURRENCY: '0' }, /WEBHOOK_CONCURRENCY must be an integer from 1 to 1000/],
    [{ WEBHOOK_CONCURRENCY: '1001' }, /WEBHOOK_CONCURRENCY must be an integer from 1 to 1000/],
    [{ WEBHOOK_DELIVERY: '0' }, /WEBHOOK_DELIVERY must be one of true, false/],
  ])('refuses %j at start', (env, message) => {
    expect(() => validate(env)).toThrow(message);
  });

  it('accepts the longest waits it allows: 24 h, as 24h, 1440m or 86400s, 20 of them', () => {
    for (const schedule of ['24h', '1440m', '86400s', Array(20).fill('24h').join(',')]) {
      expect(() => validate({ WEBHOOK_RETRY_SCHEDULE: schedule })).not.toThrow();
    }
  });
});
