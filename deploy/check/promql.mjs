// PromQL of the alert rules and the Grafana dashboard: which expressions there are, which metrics
// they name (Prometheus's own PromQL grammar, @prometheus-io/lezer-promql), and whether Prometheus
// parses them (promtool, through a rules file of recording rules: it has no command for one expression).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { dump } from 'js-yaml';
import { expect, run } from './tools.mjs';

/** Series Prometheus makes itself for every scrape target. */
export const PROMETHEUS_SERIES = ['up'];

/**
 * kube-state-metrics series, read by the rules of the `pet-adoption-service-kubernetes` group only
 * (readiness, restarts, the migration Job: what the service cannot report about itself).
 */
export const KUBE_STATE_METRICS = [
  'kube_pod_status_ready',
  'kube_deployment_status_replicas_available',
  'kube_pod_container_status_restarts_total',
  'kube_pod_container_status_waiting_reason',
  'kube_job_status_failed',
];
export const KUBERNETES_GROUP = 'pet-adoption-service-kubernetes';

/** The metric names an expression selects; throws on a syntax error. */
export function metricNames(expr) {
  const names = new Set();
  const errors = [];
  parser.parse(expr).iterate({
    enter(node) {
      if (node.type.isError) errors.push(node.from);
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') {
        names.add(expr.slice(node.from, node.to));
      }
    },
  });
  expect(errors.length === 0, `PromQL syntax error at ${errors.join(', ')} in: ${expr}`);
  return [...names];
}

/** Grafana's variables replaced by values PromQL accepts (intervals by a duration, the rest by a regex). */
export function withoutGrafanaVariables(expr) {
  return expr.replace(/\$(?:\{(\w+)(?::\w+)?\}|(\w+))/g, (_, braced, plain) =>
    /^__(rate_)?interval|^__range/.test(braced ?? plain) ? '5m' : '.+',
  );
}

/** Every expression of the dashboard: the panels' targets and the query variables' selectors. */
export function dashboardExpressions(dashboard) {
  const expressions = [];
  for (const panel of dashboard.panels ?? []) {
    for (const target of panel.targets ?? []) {
      expressions.push({ where: `panel ${panel.id} "${panel.title}" ${target.refId}`, expr: target.expr });
    }
  }
  for (const variable of dashboard.templating?.list ?? []) {
    if (variable.type !== 'query') continue;
    const query = typeof variable.query === 'string' ? variable.query : variable.query.query;
    const selector = /^label_values\((.+),\s*\w+\)$/.exec(query);
    expect(selector, `variable ${variable.name}: expected label_values(selector, label), got ${query}`);
    expressions.push({ where: `variable ${variable.name}`, expr: selector[1] });
  }
  return expressions.map(({ where, expr }) => ({ where, expr: withoutGrafanaVariables(expr) }));
}

/** The alerting rules of a rules file, with their group. */
export function ruleExpressions(rules) {
  return rules.groups.flatMap((group) =>
    group.rules.map((rule) => ({ group: group.name, where: rule.alert ?? rule.record, expr: rule.expr })),
  );
}

/** Runs `promtool check rules` on the expressions, as recording rules of a temporary file. */
export function promtoolParses(expressions, directory) {
  const file = join(directory, 'dashboard-expressions.rules.yaml');
  const rules = expressions.map(({ expr }, index) => ({ record: `dashboard:expression_${index}`, expr }));
  writeFileSync(file, dump({ groups: [{ name: 'dashboard', rules }] }));
  return run('promtool', ['check', 'rules', file]).trim();
}

/** Throws naming every metric outside `known`; returns the names used. */
export function checkNamesKnown(expressions, known) {
  const used = new Set();
  const unknown = [];
  for (const { where, expr, allowed = [] } of expressions) {
    for (const name of metricNames(expr)) {
      used.add(name);
      if (!known.has(name) && !allowed.includes(name)) unknown.push(`${where}: ${name}`);
    }
  }
  expect(unknown.length === 0, `metrics the service does not export:\n${unknown.join('\n')}`);
  return [...used].sort();
}
