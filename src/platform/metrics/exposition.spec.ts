import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { exposition, metricsRegistry, OPENMETRICS_TEXT, PROMETHEUS_TEXT } from './exposition.js';

describe('exposition', () => {
  let registry: Registry;

  beforeEach(() => {
    registry = metricsRegistry();
    new Counter({ name: 'jobs_total', help: 'Jobs.', labelNames: ['kind'], registers: [registry] }).inc({ kind: 'a' });
    new Gauge({ name: 'queue_depth', help: 'Depth.', registers: [registry] }).set(3);
    new Histogram<'trace_id'>({ name: 'took_seconds', help: 'Took.', buckets: [1], enableExemplars: true, registers: [registry] }).observe({
      value: 0.5,
      exemplarLabels: { trace_id: 'abc' },
    });
  });

  it('renders OpenMetrics with the exemplars, ending with # EOF', async () => {
    const text = await exposition(registry, OPENMETRICS_TEXT);
    expect(text).toMatch(/^# TYPE jobs counter\njobs_total\{kind="a"\} 1$/m);
    expect(text).toMatch(/^queue_depth 3$/m);
    expect(text).toMatch(/^took_seconds_bucket\{le="1"\} 1 # \{trace_id="abc"\} 0\.5 [\d.]+$/m);
    expect(text.endsWith('\n# EOF\n')).toBe(true);
  });

  it('renders Prometheus text without exemplars', async () => {
    const text = await exposition(registry, PROMETHEUS_TEXT);
    expect(text).toMatch(/^# TYPE jobs_total counter\njobs_total\{kind="a"\} 1$/m);
    expect(text).toMatch(/^took_seconds_bucket\{le="1"\} 1$/m);
    expect(text).not.toMatch(/trace_id|# EOF/);
  });

  it('renders both at once without one changing the other', async () => {
    const [prometheus, open] = await Promise.all([exposition(registry, PROMETHEUS_TEXT), exposition(registry, OPENMETRICS_TEXT)]);
    expect(await exposition(registry, PROMETHEUS_TEXT)).toBe(prometheus);
    expect(await exposition(registry, OPENMETRICS_TEXT)).toBe(open);
  });
});
