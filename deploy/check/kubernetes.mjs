// The Kubernetes manifests: both renderings (`kubectl kustomize` of the base and of the production
// overlay) are validated object by object against the API schemas, strictly, and then against the
// rules of a fleet that docs/operations.md states (probes, shutdown timing, security, secrets,
// what the public route exposes).
import { loadAll } from 'js-yaml';
import { validateObject } from './strict-validate.mjs';
import { expect, run } from './tools.mjs';

export const RENDERINGS = {
  base: 'deploy/kubernetes/base',
  production: 'deploy/kubernetes/overlays/production',
};

/** Time the process needs after the grace period to close the database pool and Redis. */
const CLOSING_MARGIN_MS = 5_000;
const SECRET_KEYS = ['DATABASE_URL', 'REDIS_URL'];

export function render(root, directory) {
  return loadAll(run('kubectl', ['kustomize', directory], { cwd: root })).filter(Boolean);
}

/** Schema validation of every object: one line per object. */
export async function validateAll(objects) {
  const lines = [];
  const problems = [];
  for (const object of objects) {
    const name = `${object.kind}/${object.metadata?.name} (${object.apiVersion})`;
    const found = await validateObject(object);
    lines.push(`${found.length === 0 ? 'valid' : 'INVALID'} ${name}`);
    problems.push(...found.map((problem) => `${name}: ${problem}`));
  }
  expect(problems.length === 0, [...lines, ...problems].join('\n'));
  return lines.join('\n');
}

const one = (objects, kind) => {
  const found = objects.filter((object) => object.kind === kind);
  expect(found.length === 1, `expected one ${kind}, found ${found.length}`);
  return found[0];
};
const matches = (selector, labels) => Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value);

/** Every fleet rule that one rendering must satisfy; returns what it checked. */
export function checkFleetRules(objects, { secretIncluded }) {
  const deployment = one(objects, 'Deployment');
  const job = one(objects, 'Job');
  const config = one(objects, 'ConfigMap').data;
  const pod = deployment.spec.template;
  const api = pod.spec.containers.find((container) => container.name === 'api');
  expect(api, 'the Deployment has no container named api');

  // Probes and the shutdown sequence.
  expect(api.livenessProbe?.httpGet?.path === '/health/live', 'liveness must probe /health/live');
  expect(api.startupProbe?.httpGet?.path === '/health/live', 'the startup probe must probe /health/live');
  expect(api.readinessProbe?.httpGet?.path === '/health/ready', 'readiness must probe /health/ready');
  const readinessDelayMs = Number(config.SHUTDOWN_READINESS_DELAY_MS ?? 5_000);
  const graceMs = Number(config.SHUTDOWN_GRACE_MS ?? 10_000);
  const { periodSeconds = 10, failureThreshold = 3 } = api.readinessProbe;
  const unreadyAfterMs = periodSeconds * failureThreshold * 1_000;
  expect(
    unreadyAfterMs < readinessDelayMs,
    `readiness notices a stop after ${unreadyAfterMs} ms, not before SHUTDOWN_READINESS_DELAY_MS (${readinessDelayMs} ms)`,
  );
  const neededS = (readinessDelayMs + graceMs + CLOSING_MARGIN_MS) / 1_000;
  const terminationS = pod.spec.terminationGracePeriodSeconds ?? 30;
  expect(terminationS >= neededS, `terminationGracePeriodSeconds ${terminationS} is below ${neededS} s`);

  // Configuration: production-safe, and the replicas never migrate.
  expect(config.DATABASE_MIGRATIONS_RUN === 'false', 'the ConfigMap must set DATABASE_MIGRATIONS_RUN=false');
  expect(config.NODE_ENV === 'production', 'the ConfigMap must set NODE_ENV=production');
  expect(config.PUBLIC_BASE_URL || config.ALLOWED_HOSTS, 'production needs PUBLIC_BASE_URL or ALLOWED_HOSTS');
  for (const key of SECRET_KEYS) expect(!(key in config), `${key} holds credentials: it belongs in the Secret, not the ConfigMap`);

  // Both workloads: non-root, read-only root filesystem, no privilege escalation, bounded memory,
  // configuration from the ConfigMap and the Secret.
  const configMapName = one(objects, 'ConfigMap').metadata.name;
  for (const [workload, podSpec, container] of [
    ['Deployment', pod.spec, api],
    ['Job', job.spec.template.spec, job.spec.template.spec.containers[0]],
  ]) {
    expect(podSpec.securityContext?.runAsNonRoot === true, `${workload}: runAsNonRoot must be true`);
    expect(container.securityContext?.readOnlyRootFilesystem === true, `${workload}: the root filesystem must be read-only`);
    expect(container.securityContext?.allowPrivilegeEscalation === false, `${workload}: allowPrivilegeEscalation must be false`);
    expect(container.resources?.requests?.cpu && container.resources?.limits?.memory, `${workload}: cpu request and memory limit`);
    const sources = container.envFrom ?? [];
    expect(
      sources.some((source) => source.configMapRef?.name === configMapName),
      `${workload}: must read the ConfigMap ${configMapName}`,
    );
    expect(
      sources.some((source) => source.secretRef?.name === 'pet-adoption-service'),
      `${workload}: must read the Secret pet-adoption-service`,
    );
  }
  expect(job.spec.template.spec.containers[0].command?.join(' ') === 'npm run migrate', 'the Job must run npm run migrate');

  // Selectors: the Service, the budget and the policy reach the API pods; the autoscaler its Deployment.
  const podLabels = pod.metadata.labels;
  expect(matches(one(objects, 'Service').spec.selector, podLabels), 'the Service does not select the API pods');
  expect(matches(one(objects, 'PodDisruptionBudget').spec.selector.matchLabels, podLabels), 'the PDB does not select the API pods');
  const hpa = one(objects, 'HorizontalPodAutoscaler');
  expect(hpa.spec.scaleTargetRef.name === deployment.metadata.name, 'the HPA does not scale the Deployment');
  expect(deployment.spec.replicas === hpa.spec.minReplicas, 'the Deployment replicas must equal the HPA minimum');

  // /metrics stays off the public path: the policy admits only named namespaces, the Ingress routes /v1 alone.
  const policy = one(objects, 'NetworkPolicy');
  expect(matches(policy.spec.podSelector.matchLabels, podLabels), 'the NetworkPolicy does not select the API pods');
  const peers = policy.spec.ingress.flatMap((rule) => rule.from ?? [undefined]);
  expect(
    peers.every((peer) => peer?.namespaceSelector?.matchLabels),
    'every NetworkPolicy ingress peer must name a namespace',
  );
  const ingress = one(objects, 'Ingress');
  const paths = ingress.spec.rules.flatMap((rule) => rule.http.paths.map((path) => path.path));
  expect(
    paths.every((path) => path === '/v1' || path.startsWith('/v1/')),
    `the Ingress may route /v1 only, not ${paths.join(', ')}`,
  );
  const allowedHosts = [
    ...(config.ALLOWED_HOSTS ?? '').split(',').map((host) => host.trim()),
    config.PUBLIC_BASE_URL && new URL(config.PUBLIC_BASE_URL).hostname,
  ];
  for (const rule of ingress.spec.rules) {
    expect(allowedHosts.includes(rule.host), `the Ingress host ${rule.host} is not in ALLOWED_HOSTS or PUBLIC_BASE_URL`);
  }

  // Credentials: placeholders in the base; production leaves the Secret to the platform's store.
  const secrets = objects.filter((object) => object.kind === 'Secret');
  if (secretIncluded) {
    expect(secrets.length === 1, 'the base must carry the placeholder Secret');
    const values = secrets[0].stringData ?? {};
    expect(Object.keys(values).sort().join() === SECRET_KEYS.join(), `the Secret must hold exactly ${SECRET_KEYS.join(', ')}`);
    expect(
      Object.values(values).every((value) => value.includes('CHANGE_ME')),
      'the Secret values must be CHANGE_ME placeholders',
    );
  } else {
    expect(secrets.length === 0, 'this rendering must not carry a Secret (it would overwrite the real one)');
  }

  return [
    `probes: startup and liveness /health/live, readiness /health/ready every ${periodSeconds} s × ${failureThreshold}`,
    `stop: unready after ${unreadyAfterMs} ms < SHUTDOWN_READINESS_DELAY_MS ${readinessDelayMs} ms; ` +
      `terminationGracePeriodSeconds ${terminationS} >= ${readinessDelayMs / 1_000} + ${graceMs / 1_000} + ${CLOSING_MARGIN_MS / 1_000} s closing`,
    `replicas ${deployment.spec.replicas} (HPA ${hpa.spec.minReplicas} to ${hpa.spec.maxReplicas}), image ${api.image}`,
    `ConfigMap ${configMapName}: ${['TRUST_PROXY', 'PUBLIC_BASE_URL', 'ALLOWED_HOSTS'].map((key) => `${key}=${config[key] ?? '(unset)'}`).join(' ')}`,
    `Ingress ${ingress.spec.rules.map((rule) => rule.host).join(', ')} routes ${paths.join(', ')}; ` +
      `NetworkPolicy admits namespaces ${peers.map((peer) => peer.namespaceSelector.matchLabels['kubernetes.io/metadata.name']).join(', ')}`,
    secretIncluded ? 'Secret: placeholders only' : 'Secret: none (from the platform secret store)',
  ].join('\n');
}
