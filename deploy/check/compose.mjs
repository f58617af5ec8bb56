// docker/compose.yaml: the admin listener (ADMIN_PORT) is published on the host's loopback address
// only, or not at all (docs/administration.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { expect } from './tools.mjs';

/** `[host_ip:]host_port:container_port` and the long syntax alike: the container port and the host address. */
function published(port) {
  if (typeof port === 'object') return { target: Number(port.target), hostIp: port.host_ip };
  const parts = String(port).split(':');
  return { target: Number(parts.at(-1).split('/')[0]), hostIp: parts.length === 3 ? parts[0] : undefined };
}

/** A mapping with its YAML merge key (`<<: *anchor`) applied, which js-yaml leaves as a member. */
const merged = ({ '<<': base = {}, ...own } = {}) => ({ ...base, ...own });

export function checkComposeAdminPort(root) {
  const { services } = load(readFileSync(join(root, 'docker/compose.yaml'), 'utf8'));
  const lines = [];
  for (const [name, service] of Object.entries(services)) {
    const adminPort = Number(merged(service.environment).ADMIN_PORT);
    if (!adminPort) continue;
    const mappings = (service.ports ?? []).map(published).filter(({ target }) => target === adminPort);
    for (const { hostIp } of mappings)
      expect(hostIp === '127.0.0.1', `${name} publishes the admin port ${adminPort} on ${hostIp ?? 'every address'}`);
    lines.push(`${name}: ADMIN_PORT=${adminPort}, ${mappings.length ? 'published on 127.0.0.1 only' : 'not published'}`);
  }
  expect(lines.length > 0, 'no compose service sets ADMIN_PORT');
  return lines.join('\n');
}
