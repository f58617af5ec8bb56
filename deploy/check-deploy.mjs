// Deployment checks: `npm run test:deploy` (builds first). Needs kubectl, and the Debian packages
// `prometheus` (prometheus and promtool) and `haproxy`; installs nothing itself.
//
// 1. Kubernetes: renders the base and the production overlay with `kubectl kustomize`, validates
//    every object offline against the Kubernetes API schemas (kubernetes-models, strict: unknown
//    fields fail too), and checks the fleet rules (probes, shutdown timing, security, secrets,
//    what the public route exposes; the admin port on no external Service or Ingress, and the
//    NetworkPolicy admitting it only from the namespace's labelled pods), the OTEL_* variables (the
//    service's own checks; the collector's port reachable), and docker/compose.yaml publishing the
//    admin port on 127.0.0.1 only and its `tracing` profile's collector where the api exports.
// 2. Prometheus: `promtool check rules` and `promtool test rules` on deploy/prometheus.
// 3. Grafana: every expression of the dashboard parses (promtool, as recording rules).
// 4. HAProxy: `haproxy -c -f docker/haproxy.cfg`.
// 5. Live: the built service (tracing on) and a real Prometheus (exemplar storage on) on loopback;
//    the alerts and the dashboard name only metrics the service exports; Prometheus scrapes it, finds
//    a traced request's trace id as an exemplar (OpenMetrics), loads the alert rules and evaluates
//    them on its metrics (printed, with a few rule expressions' results).
//
// Prints one line per check and ends with "N passed, N failed"; exits 1 when any failed. Every
// process it starts is stopped, and its temporary directory removed, whatever happens.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { stopAll } from '../test/contract/processes.mjs';
import { embeddedWorkdir, removeEmbeddedWorkdir } from '../test/support/embedded-default.mjs';
import { RENDERINGS, checkAdminPort, checkFleetRules, render, validateAll } from './check/kubernetes.mjs';
import { checkComposeAdminPort } from './check/compose.mjs';
import { checkComposeTracing, checkTracing } from './check/tracing.mjs';
import { JOB, LiveStack, formatSeries } from './check/live-stack.mjs';
import {
  KUBERNETES_GROUP,
  KUBE_STATE_METRICS,
  PROMETHEUS_SERIES,
  checkNamesKnown,
  dashboardExpressions,
  promtoolParses,
  ruleExpressions,
} from './check/promql.mjs';
import { Checks, expect, requireTool, run, waitFor } from './check/tools.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ALERTS = join(ROOT, 'deploy/prometheus/alerts.yaml');
const DASHBOARD = join(ROOT, 'deploy/grafana/pet-adoption-service.json');
const NEVER_EVALUATED = '0001-01-01T00:00:00Z';
/** Alert expressions whose live results are printed. */
const SHOWN_ALERTS = [
  'PetApiQuotaRefusalsHigh',
  'PetApiRateLimiterDegraded',
  'PetApiErrorRatioHigh',
  'PetApiLatencyP99High',
  'PetApiTargetDown',
];

const checks = new Checks();
const directory = await embeddedWorkdir('pets-deploy-check-');
const rules = load(readFileSync(ALERTS, 'utf8'));
const alerts = ruleExpressions(rules);
const dashboard = dashboardExpressions(JSON.parse(readFileSync(DASHBOARD, 'utf8')));

try {
  await checks.run('tools', () =>
    [
      requireTool('kubectl', ['version', '--client'], 'kubectl'),
      requireTool('promtool', ['--version'], 'prometheus'),
      requireTool('prometheus', ['--version'], 'prometheus'),
      requireTool('haproxy', ['-v'], 'haproxy'),
    ].join('\n'),
  );

  for (const [name, path] of Object.entries(RENDERINGS)) {
    let objects = [];
    await checks.run(`kubectl kustomize ${path}: every object valid against the Kubernetes schemas`, () => {
      objects = render(ROOT, path);
      return validateAll(objects);
    });
    await checks.run(`${path}: fleet rules`, () => checkFleetRules(objects, { secretIncluded: name === 'base' }));
    await checks.run(`${path}: the admin port stays inside the cluster`, () => checkAdminPort(objects));
    await checks.run(`${path}: tracing variables pass the service's checks, the collector is reachable`, () => checkTracing(ROOT, objects));
  }
  await checks.run('docker/compose.yaml: the admin port is published on 127.0.0.1 only', () => checkComposeAdminPort(ROOT));
  await checks.run('docker/compose.yaml: the tracing profile runs the collector the api points at', () => checkComposeTracing(ROOT));

  await checks.run('promtool check rules deploy/prometheus/alerts.yaml', () => run('promtool', ['check', 'rules', ALERTS]));
  await checks.run('promtool test rules deploy/prometheus/alerts.test.yaml', () =>
    run('promtool', ['test', 'rules', 'alerts.test.yaml'], { cwd: dirname(ALERTS) }),
  );
  await checks.run(`Grafana dashboard: all ${dashboard.length} expressions parse`, () => promtoolParses(dashboard, directory));
  await checks.run('haproxy -c -f docker/haproxy.cfg', () => run('haproxy', ['-c', '-f', 'docker/haproxy.cfg'], { cwd: ROOT }));

  const live = new LiveStack(ROOT, directory);
  await checks.run('live: the built service starts', () => live.startService());
  await checks.run('live: the alert rules and the dashboard name only metrics the service exports', async () => {
    const exported = await live.exportedMetrics();
    const known = new Set([...exported, ...PROMETHEUS_SERIES]);
    const named = checkNamesKnown(
      [...alerts.map((rule) => ({ ...rule, allowed: rule.group === KUBERNETES_GROUP ? KUBE_STATE_METRICS : [] })), ...dashboard],
      known,
    );
    return `the service exports ${exported.size} series names; the rules and the dashboard use: ${named.join(', ')}`;
  });
  await checks.run('live: Prometheus scrapes the service (target up)', async () => {
    const started = await live.startPrometheus(ALERTS);
    const target = await waitFor('the scrape target to be up', async () => {
      const { activeTargets } = await live.api('targets');
      return activeTargets.find((candidate) => candidate.labels.job === JOB && candidate.health === 'up');
    });
    return `${started}\ntarget ${target.scrapeUrl}: health ${target.health}, last scrape ${(target.lastScrapeDuration * 1000).toFixed(1)} ms`;
  });
  await checks.run('live: traffic of 200s, 401s and 429s reaches Prometheus', async () => {
    const statuses = await live.traffic();
    for (const status of ['200', '401', '429']) expect(statuses[status] > 0, `no ${status} among ${JSON.stringify(statuses)}`);
    const seen = await waitFor('Prometheus to scrape the refused requests', async () => {
      const series = await live.query(`sum by (status) (http_request_duration_seconds_count{job="${JOB}", route!~"/health/.*|/metrics"})`);
      const byStatus = Object.fromEntries(series.map(({ metric, value }) => [metric.status, value]));
      return ['200', '401', '429'].every((status) => byStatus[status] === statuses[status]) && series;
    });
    const decisions = await live.query(`sum by (plan, outcome) (rate_limit_decisions_total{job="${JOB}"})`);
    return [
      `sent: ${JSON.stringify(statuses)}`,
      'Prometheus, requests by status:',
      formatSeries(seen),
      'Prometheus, quota decisions:',
      formatSeries(decisions),
    ].join('\n');
  });
  await checks.run("live: Prometheus scrapes OpenMetrics and stores a traced request's trace id as an exemplar", async () => {
    const since = Date.now() - 1_000;
    const traceId = await live.tracedRequest();
    const selector = `http_request_duration_seconds_bucket{job="${JOB}", route="/v1/pets"}`;
    const found = await waitFor(`the exemplar of trace ${traceId}`, async () =>
      (await live.exemplars(selector, since)).find((exemplar) => exemplar.traceId === traceId),
    );
    const { activeTargets } = await live.api('targets');
    const target = activeTargets.find((candidate) => candidate.labels.job === JOB);
    expect(live.collector.exports > 0, 'the service exported no spans to the collector stand-in');
    return [
      `${selector}: exemplar trace_id="${found.traceId}" ${found.value.toFixed(4)} s in bucket le="${found.le}"`,
      `target last scrape error: ${target.lastError || 'none'}; the service sent ${live.collector.exports} OTLP export requests`,
    ].join('\n');
  });
  await checks.run('live: every alert rule is loaded, healthy and evaluated on the scraped metrics', async () => {
    const since = Date.now();
    const loaded = await waitFor('every rule to be evaluated after the traffic, and the limiter alert to be pending', async () => {
      const { groups } = await live.api('rules');
      const all = groups.flatMap((group) => group.rules);
      const evaluated = all.every((rule) => rule.lastEvaluation !== NEVER_EVALUATED && Date.parse(rule.lastEvaluation) >= since);
      const degraded = all.find((rule) => rule.name === 'PetApiRateLimiterDegraded');
      return evaluated && degraded?.state === 'pending' && all;
    });
    expect(loaded.length === alerts.length, `${loaded.length} rules loaded, ${alerts.length} in the file`);
    const unhealthy = loaded.filter((rule) => rule.health !== 'ok');
    expect(unhealthy.length === 0, `unhealthy rules: ${unhealthy.map((rule) => `${rule.name}: ${rule.lastError}`).join('; ')}`);
    return loaded
      .map((rule) => `${rule.name.padEnd(28)} health ${rule.health}, state ${rule.state.padEnd(8)} evaluated ${rule.lastEvaluation}`)
      .join('\n');
  });
  await checks.run('live: rule expressions queried on the scraped metrics', async () => {
    const lines = [];
    for (const name of SHOWN_ALERTS) {
      const rule = alerts.find((candidate) => candidate.where === name);
      const series = await live.query(rule.expr);
      if (name === 'PetApiRateLimiterDegraded') expect(series[0]?.value === 1, `${name}: expected 1, got ${formatSeries(series)}`);
      if (name === 'PetApiTargetDown') expect(series.length === 0, `${name}: the target is up, yet ${formatSeries(series)}`);
      lines.push(`${name}:`, formatSeries(series));
    }
    return lines.join('\n');
  });
} finally {
  await stopAll();
  await removeEmbeddedWorkdir(directory);
}

process.exitCode = checks.summary() ? 0 : 1;
