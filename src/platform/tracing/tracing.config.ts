import { defineConfig, isOneOf, type EnvCheck } from '../config/index.js';

export type TracingConfig = ReturnType<typeof tracingConfig>;

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

const isHttpUrl: EnvCheck = (value) =>
  /^https?:\/\//.test(value) && URL.canParse(value) ? undefined : 'must be an http:// or https:// URL';
const isRatio: EnvCheck = (value) => (/^(0(\.\d+)?|1(\.0+)?)$/.test(value) ? undefined : 'must be a number from 0 to 1');
const isHttpProtocol = isOneOf('http/protobuf', 'http/json');

/** The standard OTEL_* variables (read by the SDK itself), checked so a typo stops the start instead of tracing nothing. */
export const tracingConfig = defineConfig(
  'tracing',
  {
    OTEL_TRACES_EXPORTER: isOneOf('otlp', 'none'),
    OTEL_EXPORTER_OTLP_ENDPOINT: isHttpUrl,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: isHttpUrl,
    OTEL_EXPORTER_OTLP_PROTOCOL: isHttpProtocol,
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: isHttpProtocol,
    OTEL_TRACES_SAMPLER: isOneOf(...SAMPLERS),
    OTEL_TRACES_SAMPLER_ARG: isRatio,
    OTEL_SDK_DISABLED: isOneOf('true', 'false'),
  },
  () => tracingSettings(process.env),
);

/** The variables' defaults: exporter `otlp` unless named, so an endpoint alone turns tracing on (as the OTel Operator expects). */
export function tracingSettings(env: NodeJS.ProcessEnv) {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const exporter = env.OTEL_TRACES_EXPORTER || 'otlp';
  return {
    enabled: env.OTEL_SDK_DISABLED !== 'true' && exporter === 'otlp' && Boolean(endpoint),
    protocol: env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf',
  };
}
