import { Registry, type Metric, type RegistryContentType } from 'prom-client';

export const PROMETHEUS_TEXT = Registry.PROMETHEUS_CONTENT_TYPE;
/** The format that carries exemplars; Prometheus asks for it first. */
export const OPENMETRICS_TEXT = Registry.OPENMETRICS_CONTENT_TYPE;

/**
 * The application's registry, of the OpenMetrics type, the only one where prom-client keeps exemplars; its own
 * rendering renames counters in place (drops `_total`), so it is rendered only through `exposition`.
 */
export function metricsRegistry(): Registry {
  const registry = new Registry<RegistryContentType>();
  registry.setContentType(OPENMETRICS_TEXT);
  return registry as Registry;
}

/** What prom-client's rendering reads of a metric (its declarations name neither the string type nor getForPromString). */
interface Rendered {
  name: string;
  help: string;
  type: string;
  get(): Promise<object>;
  /** A histogram's: its values with their shared labels kept apart, as the text rendering wants them. */
  getForPromString?(): Promise<object>;
}

/** Renders through a registry of `contentType` holding views of the metrics, never renaming them, so both formats can be served. */
export function exposition(registry: Registry, contentType: RegistryContentType): Promise<string> {
  const rendering = new Registry<RegistryContentType>();
  rendering.setContentType(contentType);
  for (const metric of registry.getMetricsAsArray() as unknown as Rendered[]) {
    // OpenMetrics names a counter without `_total` in its TYPE line and adds it to the samples.
    const name = contentType === OPENMETRICS_TEXT && metric.type === 'counter' ? metric.name.replace(/_total$/, '') : metric.name;
    const read = () => (metric.getForPromString ? metric.getForPromString() : metric.get());
    const view = { name, help: metric.help, type: metric.type, get: read, getForPromString: async () => ({ ...(await read()), name }) };
    rendering.registerMetric(view as unknown as Metric);
  }
  return rendering.metrics();
}
