// The printed report: markdown tables of medians with their spread over the rounds, and of ratios
// taken round by round.
import { perRoundRatios, spread } from './stats.mjs';

/** How each measure is printed: req/s as a whole number, latencies in ms, CPU in ms per request. */
const MEASURES = {
  rps: { label: 'req/s', format: (v) => Math.round(v).toLocaleString('en') },
  p50: { label: 'p50', format: (v) => v.toFixed(2) },
  p99: { label: 'p99', format: (v) => v.toFixed(2) },
  cpu: { label: 'CPU/req', format: (v) => v.toFixed(3) },
};
const ratio = (v) => (Number.isFinite(v) ? v.toFixed(2) : 'n/a');

/** "median (min–max)" of `values`, each written by `format`. */
export function withSpread(values, format) {
  const s = spread(values);
  const f = (v) => (Number.isFinite(v) ? format(v) : 'n/a');
  return `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
}

export function markdownTable(head, rows, textColumns = 2) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map((_, i) => (i < textColumns ? '---' : '---:'))), ...rows.map(line)].join('\n');
}

/** Per server and endpoint: the median of each measure over the rounds with its spread, and the failed requests. */
export function serverTable(servers, runs) {
  const rows = servers.flatMap((server) =>
    server.endpoints.map((endpoint) => {
      const rounds = runs.get(`${server.name}:${endpoint}`) ?? [];
      const cells = Object.entries(MEASURES).map(([key, m]) =>
        withSpread(
          rounds.map((r) => r[key]),
          m.format,
        ),
      );
      return [server.label, endpoint, ...cells, String(rounds.reduce((sum, r) => sum + r.failed, 0))];
    }),
  );
  return markdownTable(['server', 'endpoint', 'req/s', 'p50 ms', 'p99 ms', 'server CPU ms/req', 'non-2xx or failed'], rows);
}

/**
 * Per comparison, endpoint and measure: `a`/`b` in each round, and their median with its spread.
 * @param {{ label: string, a: string, b: string, endpoints: string[], measures: (keyof MEASURES)[] }[]} comparisons
 */
export function ratioTable(comparisons, runs) {
  const rows = comparisons.flatMap(({ label, a, b, endpoints, measures }) =>
    endpoints.flatMap((endpoint) =>
      measures.map((measure) => {
        const ratios = perRoundRatios(runs.get(`${a}:${endpoint}`) ?? [], runs.get(`${b}:${endpoint}`) ?? [], measure);
        return [label, endpoint, MEASURES[measure].label, ratios.map(ratio).join(' '), withSpread(ratios, ratio)];
      }),
    ),
  );
  return markdownTable(['ratio', 'endpoint', 'measure', 'per round', 'median (min–max)'], rows, 3);
}
