import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP pass-through the test can cut, stall and restore, to show what the service does while
 * a server it depends on is unreachable or hung, without touching the shared server itself.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  /** While stalled, bytes from the client are held back (the server seems hung) and sent on resume. */
  private held?: Array<{ to: Socket; data: Buffer }>;
  /** Armed by `holdRepliesAfter`: what a client sends that ends the replies to it, and who waits for it. */
  private replyStop?: { marker: Buffer; seen: () => void };
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = this.port): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      let repliesHeld = false;
      client.on('data', (data: Buffer) => {
        if (this.replyStop && data.includes(this.replyStop.marker)) {
          repliesHeld = true;
          this.replyStop.seen();
          this.replyStop = undefined;
        }
        if (this.held) this.held.push({ to: upstream, data });
        else upstream.write(data);
      });
      upstream.on('data', (data: Buffer) => repliesHeld || client.write(data));
      upstream.on('end', () => client.end());
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  stall(): void {
    this.held = [];
  }

  resume(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const { to, data } of held) to.write(data);
  }

  /**
   * The next connection whose client sends `marker` (say, a COMMIT) gets no reply from then on:
   * the server did the work, the client never learns it. Resolves once the marker has passed.
   */
  holdRepliesAfter(marker: string): Promise<void> {
    return new Promise((resolve) => (this.replyStop = { marker: Buffer.from(marker), seen: resolve }));
  }

  /** Stops listening and drops every open connection: the server "goes away". */
  async cut(): Promise<void> {
    this.held = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}
