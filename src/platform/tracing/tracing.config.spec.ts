import { validateEnvironment } from '../config/index.js';
import { tracingConfig, tracingSettings } from './tracing.config.js';

const ENDPOINT = 'http://collector:4318';

describe('tracingSettings', () => {
  it.each([
    ['nothing set', {}],
    ['an exporter without an endpoint', { OTEL_TRACES_EXPORTER: 'otlp' }],
    ['the exporter "none"', { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }],
    ['an empty endpoint', { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: '' }],
    ['the SDK disabled', { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'true' }],
    ['an endpoint and the SDK disabled', { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'true' }],
  ])('is off with %s', (_, env) => {
    expect(tracingSettings(env).enabled).toBe(false);
  });

  it.each([
    ['the general endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }],
    ['the traces endpoint', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${ENDPOINT}/v1/traces` }],
    ['OTEL_SDK_DISABLED=false', { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'false' }],
  ])('is on with %s, the exporter unset (its default, otlp) or otlp', (_, env) => {
    expect(tracingSettings(env).enabled).toBe(true);
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: '', ...env }).enabled).toBe(true);
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp', ...env }).enabled).toBe(true);
  });

  it('exports protobuf unless a protocol is named; the traces protocol wins over the general one', () => {
    expect(tracingSettings({}).protocol).toBe('http/protobuf');
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).protocol).toBe('http/json');
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' }).protocol).toBe('http/json');
    expect(
      tracingSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }).protocol,
    ).toBe('http/protobuf');
  });
});

describe('tracingConfig checks', () => {
  const problem = (name: string, value: string) => tracingConfig.checks[name](value, {});

  it.each([
    ['OTEL_TRACES_EXPORTER', ['otlp', 'none'], ['jaeger', 'zipkin', 'console', 'OTLP']],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', [ENDPOINT, 'https://collector.example:4318/'], ['collector:4318', 'grpc://collector:4317', 'http://']],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', [`${ENDPOINT}/v1/traces`], ['localhost:4318/v1/traces']],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', ['http/protobuf', 'http/json'], ['grpc', 'json']],
    ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', ['http/json'], ['grpc']],
    ['OTEL_TRACES_SAMPLER', ['always_on', 'parentbased_traceidratio'], ['ratio', 'AlwaysOn']],
    ['OTEL_TRACES_SAMPLER_ARG', ['0', '0.1', '1', '1.0'], ['1.5', '-0.1', '10%', '.5']],
    ['OTEL_SDK_DISABLED', ['true', 'false'], ['yes', '1']],
  ])('%s takes only what the service supports', (name, good, bad) => {
    for (const value of good) expect(problem(name, value)).toBeUndefined();
    for (const value of bad) expect(problem(name, value)).toEqual(expect.stringMatching(/^must be /));
  });

  it('stops the start with one message naming every bad variable', () => {
    expect(() =>
      validateEnvironment([tracingConfig])({
        OTEL_TRACES_EXPORTER: 'jaeger',
        OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT,
        OTEL_TRACES_SAMPLER_ARG: '2',
      }),
    ).toThrow(
      /Invalid configuration:\n {2}- OTEL_TRACES_EXPORTER must be one of otlp, none \(got "jaeger"\)\n {2}- OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 \(got "2"\)/,
    );
    expect(() =>
      validateEnvironment([tracingConfig])({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }),
    ).not.toThrow();
  });
});
