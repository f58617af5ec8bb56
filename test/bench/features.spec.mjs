import { describe, expect, it } from '@jest/globals';
import { FEATURES, featureServer } from '../../bench/lib/servers.mjs';

const service = {
  name: 'service',
  label: 'service',
  script: 'dist/src/main.js',
  env: { LOG_LEVEL: 'warn', REDIS_KEY_PREFIX: 'p:service:' },
  endpoints: ['list', 'get'],
};
const tracing = { sinkUrl: 'http://127.0.0.1:4318', ratio: 0.1 };

describe('featureServer', () => {
  it('turns the request log on, so its comparison is the variant over the service', () => {
    const server = featureServer(service, 'request-log');
    expect(server).toMatchObject({
      name: 'feature-request-log',
      script: 'dist/src/main.js',
      endpoints: ['list'],
      on: 'feature-request-log',
      off: 'service',
    });
    expect(server.env.LOG_LEVEL).toBe('info');
  });

  it('turns tracing on, sampling the ratio asked for and exporting to the sink, so its comparison is the variant over the service', () => {
    const server = featureServer(service, 'tracing', tracing);
    expect(server).toMatchObject({ name: 'feature-tracing', script: 'dist/src/main.js', on: 'feature-tracing', off: 'service' });
    expect(server.env).toMatchObject({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: tracing.sinkUrl,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
  });

  it('turns the read cache off with its own setting, and the rest off in the bench-only entry point', () => {
    expect(featureServer(service, 'read-cache')).toMatchObject({
      script: 'dist/src/main.js',
      env: { READ_CACHE_TTL_MS: '0' },
      on: 'service',
      off: 'feature-read-cache',
    });
    for (const feature of FEATURES.filter((f) => !['request-log', 'read-cache', 'tracing'].includes(f))) {
      expect(featureServer(service, feature)).toMatchObject({
        script: 'dist/bench/service-without/main.js',
        env: { BENCH_WITHOUT: feature },
        on: 'service',
      });
    }
  });

  it('gives each variant Redis keys of its own and leaves the service alone', () => {
    const prefixes = FEATURES.map((f) => featureServer(service, f, tracing).env.REDIS_KEY_PREFIX);
    expect(new Set([...prefixes, service.env.REDIS_KEY_PREFIX]).size).toBe(FEATURES.length + 1);
    expect(service.env).toEqual({ LOG_LEVEL: 'warn', REDIS_KEY_PREFIX: 'p:service:' });
  });
});
