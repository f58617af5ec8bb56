import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { answerUnparsableRequests } from './unparsable-request.handler.js';

function fakeSocket(state: { writable?: boolean; answering?: EventEmitter } = {}) {
  const written: string[] = [];
  const socket = {
    writable: state.writable ?? true,
    _httpMessage: state.answering ?? null,
    destroyed: false,
    end: (data: string) => written.push(data),
    destroy() {
      this.destroyed = true;
    },
  };
  return { socket, written };
}

function clientError(code: string, state?: { writable?: boolean; answering?: EventEmitter }) {
  const server = new EventEmitter();
  answerUnparsableRequests(server as unknown as Server);
  const { socket, written } = fakeSocket(state);
  server.emit('clientError', Object.assign(new Error(code), { code }), socket);
  return { socket, written };
}

describe('answerUnparsableRequests', () => {
  it('answers a parse error with the 400 Error object and closes the connection', () => {
    const { written } = clientError('HPE_INVALID_METHOD');
    expect(written).toHaveLength(1);
    const [head, body] = written[0].split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(head).toContain('Connection: close');
    expect(JSON.parse(body)).toEqual(expect.objectContaining({ code: 'validation_failed', status: 400 }));
  });

  it('answers headers over the size limit with the 431 Error object', () => {
    const [head, body] = clientError('HPE_HEADER_OVERFLOW').written[0].split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(JSON.parse(body)).toEqual({ code: 'headers_too_large', message: expect.stringContaining('KiB'), status: 431 });
  });

  it('answers bytes it cannot read after a complete request once that request is answered', () => {
    const inFlight = Object.assign(new EventEmitter(), { writableFinished: false });
    const { socket, written } = clientError('HPE_INVALID_METHOD', { answering: inFlight });
    expect(written).toEqual([]);
    inFlight.writableFinished = true;
    inFlight.emit('finish');
    inFlight.emit('close');
    expect(written[0]).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(socket.destroyed).toBe(false);
  });

  it('only closes a connection whose earlier response never finished', () => {
    const inFlight = Object.assign(new EventEmitter(), { writableFinished: false });
    const { socket, written } = clientError('HPE_INVALID_METHOD', { answering: inFlight });
    inFlight.emit('close');
    expect([written, socket.destroyed]).toEqual([[], true]);
  });

  it("keeps Node's 408 for a request that timed out", () => {
    expect(clientError('ERR_HTTP_REQUEST_TIMEOUT').written).toEqual(['HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n']);
  });

  it.each([
    ['a reset connection', 'ECONNRESET', {}],
    ['a socket that cannot be written', 'HPE_INVALID_METHOD', { writable: false }],
  ])('only closes %s', (_case, code, state) => {
    const { socket, written } = clientError(code, state);
    expect(written).toEqual([]);
    expect(socket.destroyed).toBe(true);
  });
});
