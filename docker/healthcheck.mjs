/* global fetch, AbortSignal */
// The image's HEALTHCHECK: liveness (/health/live) asked where the server listens, as main.js reads
// HOST and PORT. A wildcard address (every interface) is reached on loopback; any other HOST, such as
// a pod's own address, must be asked on that address, since the server does not answer on loopback.
const host = process.env.HOST || '0.0.0.0';
const port = process.env.PORT || 3000;
const address = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;

// process.exit: a kept-alive connection would otherwise hold the process for seconds.
try {
  const response = await fetch(`http://${address}:${port}/health/live`, { signal: AbortSignal.timeout(4_000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
