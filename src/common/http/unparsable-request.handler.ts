import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { HeadersTooLargeException, ValidationFailedException, type ApiException } from '../errors/api.exception.js';

const UNPARSABLE = new ValidationFailedException(
  [],
  'The request is not valid HTTP/1.1 (request line or headers); percent-encode non-ASCII characters in the URL.',
);
const HEADERS_TOO_LARGE = new HeadersTooLargeException();

function answer(socket: Duplex, error: ApiException): void {
  const status = error.getStatus();
  const body = JSON.stringify(error.toBody());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${randomUUID()}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** Answers what Node's HTTP parser cannot read as the Error object, after any earlier response on the connection, then closes it. */
export function answerUnparsableRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return void socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    const apiError = error.code === 'HPE_HEADER_OVERFLOW' ? HEADERS_TOO_LARGE : UNPARSABLE;
    // The response to an earlier request on the connection, while it is still being written.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!inFlight) return answer(socket, apiError);
    inFlight.once('finish', () => (socket.writable ? answer(socket, apiError) : socket.destroy()));
    inFlight.once('close', () => {
      if (!inFlight.writableFinished) socket.destroy();
    });
  });
}
