// A loopback TCP proxy in front of PostgreSQL that counts what clients ask of it, by reading the
// frontend messages of the wire protocol: each simple query ('Q') and each execution of an
// extended-protocol statement ('E') is one SQL statement; connections are counted too. Used for a
// dedicated server instance only, never for the servers whose throughput is measured.
import { once } from 'node:events';
import net from 'node:net';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

/** @param {{ host: string, port: number }} target */
export async function startCountingProxy(target) {
  const counts = { connections: 0, statements: 0, simpleQueries: 0, executes: 0, parses: 0 };
  /** @type {Set<net.Socket>} */
  const sockets = new Set();

  const server = net.createServer((client) => {
    counts.connections += 1;
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    let buffer = Buffer.alloc(0);
    let startup = true;
    client.on('data', (chunk) => {
      upstream.write(chunk);
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (;;) {
        if (startup) {
          // Untyped: length (int32, itself included), then a code (the protocol version or a request).
          if (buffer.length < 8) break;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) break;
          const code = buffer.readInt32BE(4);
          buffer = buffer.subarray(length);
          if (code !== SSL_REQUEST && code !== GSSENC_REQUEST && code !== CANCEL_REQUEST) startup = false;
          continue;
        }
        // Typed: one byte of type, then length (int32, itself included, not the type byte).
        if (buffer.length < 5) break;
        const length = buffer.readInt32BE(1);
        if (buffer.length < 1 + length) break;
        const type = String.fromCharCode(buffer[0]);
        if (type === 'Q') counts.simpleQueries += 1;
        if (type === 'E') counts.executes += 1;
        if (type === 'P') counts.parses += 1;
        if (type === 'Q' || type === 'E') counts.statements += 1;
        buffer = buffer.subarray(1 + length);
      }
    });
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', close);
    upstream.on('close', close);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    /** The counts so far (a copy). */
    snapshot: () => ({ ...counts }),
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
