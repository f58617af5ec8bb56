// The collector the traced server exports to: OTLP/HTTP requests read to the end and answered 200,
// in the benchmark's own process (a collector's work is not the service's).
import { createServer } from 'node:http';
import { once } from 'node:events';

/** Starts the sink on a free loopback port; resolves with its base URL (OTEL_EXPORTER_OTLP_ENDPOINT), what it received, and `close`. */
export async function startOtlpSink() {
  const received = { requests: 0, bytes: 0 };
  const server = createServer((request, response) => {
    request.on('data', (chunk) => (received.bytes += chunk.length));
    request.on('end', () => {
      received.requests++;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const close = () => new Promise((resolve) => server.close(resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, received, close };
}
