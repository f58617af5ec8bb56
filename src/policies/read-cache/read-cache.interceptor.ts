import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, of, type Observable } from 'rxjs';
import { apiBaseUrl } from '../../common/index.js';
import type { AppConfig } from '../../platform/config/index.js';
import { DataGeneration } from './data-generation.js';
import { CACHED_READ, INVALIDATES_CACHED_READS } from './read-cache.decorators.js';
import { ReadCache, type CachedAnswer } from './read-cache.js';

/**
 * A `@CachedRead()` GET runs once per URL and generation; an `@InvalidatesCachedReads()` write renews
 * the cache once it has ended: registered ahead of the idempotency interceptor, after its transaction.
 */
@Injectable()
export class ReadCacheInterceptor implements NestInterceptor {
  private readonly publicBaseUrl?: string;

  constructor(
    private readonly cache: ReadCache,
    private readonly generations: DataGeneration,
    private readonly reflector: Reflector,
    config: ConfigService,
  ) {
    this.publicBaseUrl = config.getOrThrow<AppConfig>('app').publicBaseUrl;
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const handler = context.getHandler();
    if (this.reflector.get<boolean>(INVALIDATES_CACHED_READS, handler)) return from(this.write(next));
    const headers = this.reflector.get<string[] | undefined>(CACHED_READ, handler);
    const request = context.switchToHttp().getRequest<Request>();
    const generation = headers && this.cache.enabled ? await this.generations.of(request) : undefined;
    if (generation === undefined) return next.handle();
    const response = context.switchToHttp().getResponse<Response>();
    const key = `${apiBaseUrl(request, this.publicBaseUrl)} ${request.originalUrl}`;
    const read = await this.cache.read(generation, key, async () => {
      const body: unknown = await lastValueFrom(next.handle(), { defaultValue: undefined });
      return { json: JSON.stringify(body), headers: headers!.flatMap((name) => headerOf(response, name)) };
    });
    return of(answer(read, response));
  }

  private async write(next: CallHandler): Promise<unknown> {
    try {
      return await lastValueFrom(next.handle(), { defaultValue: undefined });
    } finally {
      await this.cache.changed();
    }
  }
}

/** The body as the JSON text serialized once: Express sends a string as it is. */
function answer(read: CachedAnswer, response: Response): string | undefined {
  for (const [name, value] of read.headers) response.setHeader(name, value);
  if (read.json !== undefined) response.setHeader('Content-Type', 'application/json');
  return read.json;
}

function headerOf(response: Response, name: string): Array<[string, string]> {
  const value = response.getHeader(name);
  return typeof value === 'string' ? [[name, value]] : [];
}
