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

/** The admin listener's container port (ADMIN_PORT): named so Services and the NetworkPolicy follow its number. */
const ADMIN_PORT_NAME = 'admin';
/** Service types that publish a port outside the cluster. */
const EXTERNAL_SERVICE_TYPES = ['NodePort', 'LoadBalancer', 'ExternalName'];

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

  // Selectors: the Services, the budget and the policy reach the API pods; the autoscaler its Deployment.
  const podLabels = pod.metadata.labels;
  for (const service of objects.filter((object) => object.kind === 'Service')) {
    expect(matches(service.spec.selector, podLabels), `the Service ${service.metadata.name} does not select the API pods`);
  }
  expect(matches(one(objects, 'PodDisruptionBudget').spec.selector.matchLabels, podLabels), 'the PDB does not select the API pods');
  const hpa = one(objects, 'HorizontalPodAutoscaler');
  expect(hpa.spec.scaleTargetRef.name === deployment.metadata.name, 'the HPA does not scale the Deployment');
  expect(deployment.spec.replicas === hpa.spec.minReplicas, 'the Deployment replicas must equal the HPA minimum');

  // /metrics stays off the public path: the policy admits only named namespaces, the Ingress routes /v1 alone.
  const policy = one(objects, 'NetworkPolicy');
  expect(matches(policy.spec.podSelector.matchLabels, podLabels), 'the NetworkPolicy does not select the API pods');
  const publicRules = policy.spec.ingress.filter((rule) => !(rule.ports ?? []).some((port) => port.port === ADMIN_PORT_NAME));
  const peers = publicRules.flatMap((rule) => rule.from ?? [undefined]);
  expect(
    peers.every((peer) => peer?.namespaceSelector?.matchLabels),
    'every NetworkPolicy ingress peer of the public port must name a namespace',
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

/**
 * The admin port (docs/administration.md): set in the ConfigMap and declared on the container; on no
 * Service published outside the cluster and behind no Ingress; admitted by the NetworkPolicy only from
 * pods of the namespace, by a label, never from another namespace or an address block.
 */
export function checkAdminPort(objects) {
  const config = one(objects, 'ConfigMap').data;
  const api = one(objects, 'Deployment').spec.template.spec.containers.find((container) => container.name === 'api');
  const declared = (api.ports ?? []).find((port) => port.name === ADMIN_PORT_NAME);
  expect(config.ADMIN_PORT, 'the ConfigMap must set ADMIN_PORT: the admin API is off without it');
  expect(declared?.containerPort === Number(config.ADMIN_PORT), `the api container must declare port "${ADMIN_PORT_NAME}" = ADMIN_PORT`);
  expect(config.ADMIN_HOST === '0.0.0.0', 'ADMIN_HOST must be 0.0.0.0: on the default loopback no Service or operator pod reaches it');
  const isAdmin = (port) => port === ADMIN_PORT_NAME || Number(port) === declared.containerPort;

  const services = objects.filter((object) => object.kind === 'Service');
  const adminServices = services.filter((service) => service.spec.ports.some((port) => isAdmin(port.targetPort ?? port.port)));
  for (const service of adminServices) {
    expect(
      !EXTERNAL_SERVICE_TYPES.includes(service.spec.type ?? 'ClusterIP'),
      `the Service ${service.metadata.name} publishes the admin port outside the cluster`,
    );
    expect(!service.spec.externalIPs?.length, `the Service ${service.metadata.name} gives the admin port external IPs`);
  }
  const backends = objects
    .filter((object) => object.kind === 'Ingress')
    .flatMap((ingress) => [
      ingress.spec.defaultBackend,
      ...ingress.spec.rules.flatMap((rule) => rule.http.paths.map((path) => path.backend)),
    ])
    .filter(Boolean);
  for (const { service } of backends) {
    const target = services.find((candidate) => candidate.metadata.name === service.name);
    const port = target?.spec.ports.find((candidate) => candidate.name === service.port.name || candidate.port === service.port.number);
    expect(
      port && !isAdmin(port.targetPort ?? port.port),
      `the Ingress routes ${service.name}:${service.port.name ?? service.port.number}, the admin port`,
    );
    expect(!adminServices.includes(target), `the Ingress routes ${service.name}, a Service of the admin port`);
  }

  const rules = one(objects, 'NetworkPolicy').spec.ingress;
  expect(
    rules.every((rule) => rule.ports?.length),
    'every NetworkPolicy rule must name its ports: a rule without ports admits the admin port too',
  );
  const adminRules = rules.filter((rule) => rule.ports.some((port) => isAdmin(port.port)));
  expect(adminRules.length > 0, 'no NetworkPolicy rule admits the admin port: operators cannot reach it');
  const peers = adminRules.flatMap((rule) => rule.from ?? [undefined]);
  expect(
    peers.every((peer) => peer?.podSelector?.matchLabels && !peer.namespaceSelector && !peer.ipBlock),
    'the admin port must be admitted only from labelled pods of the namespace (a podSelector alone)',
  );
  const labels = peers.map((peer) =>
    Object.entries(peer.podSelector.matchLabels)
      .map(([key, value]) => `${key}=${value}`)
      .join(','),
  );
  return [
    `ADMIN_PORT=${config.ADMIN_PORT} on ${config.ADMIN_HOST}, container port "${ADMIN_PORT_NAME}"`,
    `Services of the admin port: ${adminServices.map((service) => `${service.metadata.name} (${service.spec.type ?? 'ClusterIP'})`).join(', ')}; the Ingress routes ${backends.map(({ service }) => `${service.name}:${service.port.name ?? service.port.number}`).join(', ')}`,
    `NetworkPolicy admits the admin port from pods labelled ${labels.join(' or ')} of the namespace only`,
  ].join('\n');
}
