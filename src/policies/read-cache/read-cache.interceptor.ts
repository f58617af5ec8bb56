import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, of, type Observable } from 'rxjs';
import { apiBaseUrl } from '../../common/index.js';
import type { AppConfig } from '../../platform/config/index.js';
import { DataGeneration } from './data-generation.js';
import { ReadCache } from './read-cache.js';

type CachedReadOptions = { tag: string; headers?: string[] };
// Nest's made decorators take their value as optional; the exported ones below require it.
const CachedReadRoute = Reflector.createDecorator<CachedReadOptions>();
const WritesTag = Reflector.createDecorator<string>();

/** Serves this GET from the read cache, the same answer for every caller: `tag` names what it shows, `headers` those its handler sets. */
export const CachedRead = (options: CachedReadOptions) => CachedReadRoute(options);

/** Marks a write: once it has ended (its transaction committed), every replica's cached reads of the tag are renewed. */
export const InvalidatesCachedReads = (tag: string) => WritesTag(tag);

/** A cached GET runs once per URL and generation of its tag; registered ahead of the idempotency interceptor, so after its transaction. */
@Injectable()
export class ReadCacheInterceptor implements NestInterceptor {
  private readonly publicBaseUrl = this.config.getOrThrow<AppConfig>('app').publicBaseUrl;

  constructor(
    private readonly cache: ReadCache,
    private readonly generations: DataGeneration,
    private readonly reflector: Reflector,
    private readonly config: ConfigService,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const handler = context.getHandler();
    const written = this.reflector.get(WritesTag, handler);
    if (written !== undefined) return from(this.write(written, next));
    const read = this.reflector.get(CachedReadRoute, handler);
    const generation = read && this.cache.enabled ? await this.generations.of(read.tag) : undefined;
    if (generation === undefined) return next.handle();
    const { tag, headers } = read;
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const key = `${apiBaseUrl(request, this.publicBaseUrl)} ${request.originalUrl}`;
    const cached = await this.cache.read(tag, generation, key, async () => {
      const body: unknown = await lastValueFrom(next.handle(), { defaultValue: undefined });
      return { json: JSON.stringify(body), headers: (headers ?? []).flatMap((name) => headerOf(response, name)) };
    });
    // The body as the JSON text serialized once: Express sends a string as it is.
    for (const [name, value] of cached.headers) response.setHeader(name, value);
    if (cached.json !== undefined) response.setHeader('Content-Type', 'application/json');
    return of(cached.json);
  }

  private async write(tag: string, next: CallHandler): Promise<unknown> {
    try {
      return await lastValueFrom(next.handle(), { defaultValue: undefined });
    } finally {
      await this.cache.changed(tag);
    }
  }
}

function headerOf(response: Response, name: string): Array<[string, string]> {
  const value = response.getHeader(name);
  return typeof value === 'string' ? [[name, value]] : [];
}
