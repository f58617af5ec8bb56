// Tracing's deployment pieces: the OTEL_* variables of a rendering pass the service's own boot checks
// (the built dist/, as the pods run it), the exporter's collector port is reachable under the
// NetworkPolicy, and docker/compose.yaml's `tracing` profile runs the collector the api points at.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load } from 'js-yaml';
import { expect } from './tools.mjs';

const importBuilt = (root, path) => import(pathToFileURL(join(root, 'dist/src', path)).href);

/** Problems the service's configuration check reports for these variables (as `NAME: problem`). */
async function bootProblems(root, env) {
  const { tracingConfig } = await importBuilt(root, 'platform/tracing/tracing.config.js');
  return Object.entries(tracingConfig.checks)
    .filter(([name]) => env[name])
    .map(([name, check]) => [name, check(env[name], env)])
    .filter(([, problem]) => problem !== undefined)
    .map(([name, problem]) => `${name} ${problem} (got "${env[name]}")`);
}

/** A rendering's ConfigMap: tracing off, or on with well-formed variables and the collector's port reachable. */
export async function checkTracing(root, objects) {
  const config = objects.find((object) => object.kind === 'ConfigMap').data;
  const { tracingSettings } = await importBuilt(root, 'platform/tracing/tracing.config.js');
  const problems = await bootProblems(root, config);
  expect(problems.length === 0, `the service would refuse to start: ${problems.join('; ')}`);
  const names = Object.keys(config).filter((name) => name.startsWith('OTEL_'));
  if (!tracingSettings(config).enabled) {
    expect(names.length === 0, `tracing is off, yet the ConfigMap sets ${names.join(', ')}`);
    return 'tracing off (no OTEL_* variable)';
  }
  expect(config.OTEL_SERVICE_NAME, 'OTEL_SERVICE_NAME must name the service in the traces');
  expect(config.OTEL_TRACES_SAMPLER?.startsWith('parentbased_'), 'the sampler must keep a caller’s decision (parentbased_*)');
  const endpoint = new URL(config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const port = Number(endpoint.port || (endpoint.protocol === 'https:' ? 443 : 80));
  const policy = objects.find((object) => object.kind === 'NetworkPolicy');
  const egressOpen = !policy.spec.policyTypes?.includes('Egress');
  expect(
    egressOpen || (policy.spec.egress ?? []).some((rule) => !rule.ports || rule.ports.some((candidate) => Number(candidate.port) === port)),
    `the NetworkPolicy restricts egress and no rule admits the collector's port ${port}`,
  );
  return [
    ...names.sort().map((name) => `${name}=${config[name]}`),
    `collector ${endpoint.host}: ${egressOpen ? 'egress open' : `egress admitted on port ${port}`}`,
  ].join('\n');
}

/** The compose `tracing` profile: a collector receiving OTLP/HTTP where the api's default endpoint points. */
export async function checkComposeTracing(root) {
  const { services } = load(readFileSync(join(root, 'docker/compose.yaml'), 'utf8'));
  const collectors = Object.entries(services).filter(([, service]) => service.profiles?.includes('tracing'));
  expect(collectors.length === 1, `expected one service in the tracing profile, found ${collectors.length}`);
  const [name, collector] = collectors[0];
  const { environment } = services.api;
  // `${VAR:-default}`: the value compose gives when the shell sets nothing.
  const defaults = Object.fromEntries(
    Object.entries(environment).map(([key, value]) => [key, String(value).replace(/^\$\{\w+:-(.*)\}$/, '$1')]),
  );
  const problems = await bootProblems(root, defaults);
  expect(problems.length === 0, `the api's tracing defaults would stop it: ${problems.join('; ')}`);
  const endpoint = new URL(defaults.OTEL_EXPORTER_OTLP_ENDPOINT);
  expect(endpoint.hostname === name, `the api's OTEL_EXPORTER_OTLP_ENDPOINT names ${endpoint.hostname}, not the collector ${name}`);
  const mount = (collector.volumes ?? []).map((volume) => volume.split(':')).find(([source]) => source.endsWith('.yaml'));
  expect(mount, `${name} mounts no collector configuration`);
  const collectorConfig = load(readFileSync(join(root, 'docker', mount[0]), 'utf8'));
  const listen = collectorConfig.receivers?.otlp?.protocols?.http?.endpoint ?? '';
  expect(listen.endsWith(`:${endpoint.port}`), `the collector's OTLP/HTTP receiver listens on "${listen}", not port ${endpoint.port}`);
  expect(
    collectorConfig.service?.pipelines?.traces?.receivers?.includes('otlp'),
    'the collector has no traces pipeline from its otlp receiver',
  );
  return `api: OTEL_TRACES_EXPORTER defaults to ${defaults.OTEL_TRACES_EXPORTER} (off), endpoint ${endpoint.href}; ${name} (profile tracing) receives OTLP/HTTP on ${listen}`;
}
