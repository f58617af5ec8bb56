import { createServer, type IncomingMessage, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { IExportTraceServiceRequest } from '@opentelemetry/otlp-transformer/build/src/trace/internal-types.js';
import type { IAnyValue, IKeyValue } from '@opentelemetry/otlp-transformer/build/src/common/internal-types.js';

/** A span as a test reads it: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  /** The resource of the process that sent it (service.name, ...). */
  resource: Record<string, unknown>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function valueOf(value: IAnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.arrayValue) return value.arrayValue.values.map(valueOf);
  if (value.intValue !== undefined && value.intValue !== null) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue ?? undefined;
}

const attributesOf = (pairs: IKeyValue[] | undefined) => Object.fromEntries((pairs ?? []).map(({ key, value }) => [key, valueOf(value)]));

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The collector's side of OTLP/HTTP on loopback (`POST /v1/traces`), as an OpenTelemetry Collector
 * answers it: JSON requests are decoded with the OpenTelemetry packages' own types; protobuf ones are
 * counted (the service's default protocol reaches a collector too), not decoded.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly protobufRequests: Buffer[] = [];
  private server?: Server;

  /** The base URL to give as OTEL_EXPORTER_OTLP_ENDPOINT; on `port`, when the address must be known before it starts. */
  async start(port = 0): Promise<string> {
    this.server = createServer((request, response) => {
      void bodyOf(request).then((body) => {
        if (request.method !== 'POST' || request.url !== '/v1/traces') return response.writeHead(404).end();
        const type = request.headers['content-type'] ?? '';
        if (type.startsWith('application/x-protobuf')) {
          this.protobufRequests.push(body);
          return response.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
        }
        this.receive(JSON.parse(body.toString('utf8')) as IExportTraceServiceRequest);
        return response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The spans of one trace once `complete` holds for them (bounded wait: spans are exported in batches). */
  async trace(traceId: string, complete: (spans: ReceivedSpan[]) => boolean, timeoutMs = 15_000): Promise<ReceivedSpan[]> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const spans = this.spans.filter((span) => span.traceId === traceId);
      if (complete(spans)) return spans;
      if (performance.now() > deadline) {
        throw new Error(`trace ${traceId} incomplete after ${timeoutMs} ms: ${JSON.stringify(spans.map(({ name }) => name))}`);
      }
      await sleep(50);
    }
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
  }

  private receive(request: IExportTraceServiceRequest): void {
    for (const { resource, scopeSpans } of request.resourceSpans ?? []) {
      for (const { spans } of scopeSpans) {
        for (const span of spans ?? []) {
          this.spans.push({
            traceId: String(span.traceId),
            spanId: String(span.spanId),
            parentSpanId: span.parentSpanId ? String(span.parentSpanId) : undefined,
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            resource: attributesOf(resource?.attributes),
          });
        }
      }
    }
  }
}
