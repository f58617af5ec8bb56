import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ValidationFailedException } from '../errors/api.exception.js';

/** What Node's HTTP parser could not read: raw non-ASCII bytes in the request line, broken headers. */
const UNPARSABLE = new ValidationFailedException(
  [],
  'The request is not valid HTTP/1.1 (request line or headers); percent-encode non-ASCII characters in the URL.',
);

/** A socket whose response to an earlier request on the connection is still being written. */
function isAnswering(socket: Duplex): boolean {
  return Boolean((socket as Duplex & { _httpMessage?: unknown })._httpMessage);
}

/**
 * Node answers a request its parser cannot read before Express or Nest see it, with a bare
 * `400 Bad Request` and no body. This answers it as every other error: the Error object as JSON,
 * with an `X-Request-Id`, then closes the connection (what follows on it cannot be trusted).
 * Request timeouts keep Node's 408; a reset or already answering connection is only closed.
 */
export function answerUnparsableRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable || isAnswering(socket)) {
      socket.destroy();
      return;
    }
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
      return;
    }
    const body = JSON.stringify(UNPARSABLE.toBody());
    socket.end(
      `HTTP/1.1 ${UNPARSABLE.getStatus()} Bad Request\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
