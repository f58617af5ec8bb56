import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One delivery as the receiver saw it: verified with the Standard Webhooks library itself, not with the service's code. */
export interface Received {
  id: string;
  timestamp: string;
  signatures: string[];
  event: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
  arrivedAt: number;
}

/** How the receiver answers an attempt (at once, or when its promise settles): a status, a hang past the sender's timeout, or a dropped connection. */
export type Answer = number | 'hang' | 'drop';

/**
 * A webhook receiver on loopback. Every request must carry a signature that verifies under one of `secrets`
 * (a bad one is recorded in `forged` and answered 400); `answer` decides the response of each attempt.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  readonly forged: string[] = [];
  secrets: string[] = [];
  answer: (attempt: Received) => Answer | Promise<Answer> = () => 204;
  private server?: Server;

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hooks`;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((request, response) => {
      void read(request).then(async (body) => {
        const headers = {
          'webhook-id': header(request, 'webhook-id'),
          'webhook-timestamp': header(request, 'webhook-timestamp'),
          'webhook-signature': header(request, 'webhook-signature'),
        };
        const verified = this.secrets.some((secret) => {
          try {
            new Webhook(secret).verify(body, headers);
            return true;
          } catch {
            return false;
          }
        });
        if (!verified) {
          this.forged.push(body);
          response.writeHead(400).end();
          return;
        }
        const attempt: Received = {
          id: headers['webhook-id'],
          timestamp: headers['webhook-timestamp'],
          signatures: headers['webhook-signature'].split(' '),
          event: JSON.parse(body) as Received['event'],
          arrivedAt: Date.now(),
        };
        this.received.push(attempt);
        const answer = await this.answer(attempt);
        if (answer === 'drop') response.socket?.destroy();
        else if (answer !== 'hang') response.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    return this;
  }

  /** The distinct events of a type, by id. */
  events(type: string): Map<string, Received> {
    return new Map(this.received.filter(({ event }) => event.type === type).map((attempt) => [attempt.id, attempt]));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const header = (request: IncomingMessage, name: string) => String(request.headers[name] ?? '');

async function read(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
