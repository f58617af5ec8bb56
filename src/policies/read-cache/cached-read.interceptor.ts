import {
  applyDecorators,
  Injectable,
  SetMetadata,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, map, of, type Observable } from 'rxjs';
import { apiBaseUrl } from '../../common/index.js';
import type { AppConfig } from '../../platform/config/index.js';
import { DataGeneration } from './data-generation.js';
import { ReadCache, type CachedAnswer } from './read-cache.js';

const CACHED_HEADERS = Symbol('cached read headers');

/**
 * Serves a GET from the replica's read cache while the data generation stays the same: the
 * handler, its validation, its query and the serialization of its result run once per URL and
 * generation. The answer is the same for every caller (it depends on the URL and the base of the
 * links only), and only a completed handler is kept, with the `headers` it set (such as `Link`).
 * Authentication and the quota decision still run first, for every request.
 */
export const CachedRead = (...headers: string[]) =>
  applyDecorators(SetMetadata(CACHED_HEADERS, headers), UseInterceptors(CachedReadInterceptor));

@Injectable()
export class CachedReadInterceptor implements NestInterceptor {
  private readonly publicBaseUrl?: string;

  constructor(
    private readonly cache: ReadCache,
    private readonly generations: DataGeneration,
    private readonly reflector: Reflector,
    config: ConfigService,
  ) {
    this.publicBaseUrl = config.getOrThrow<AppConfig>('app').publicBaseUrl;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    const generation = this.cache.enabled ? this.generations.of(request) : undefined;
    if (generation === undefined) return next.handle();
    const response = context.switchToHttp().getResponse<Response>();
    const key = `${apiBaseUrl(request, this.publicBaseUrl)} ${request.originalUrl}`;
    const hit = this.cache.get(generation, key);
    if (hit) return of(answer(hit, response));
    const headers = this.reflector.get<string[]>(CACHED_HEADERS, context.getHandler());
    const handle = async (): Promise<CachedAnswer> => {
      const body: unknown = await lastValueFrom(next.handle(), { defaultValue: undefined });
      return { json: JSON.stringify(body), headers: headers.flatMap((name) => headerOf(response, name)) };
    };
    return from(this.cache.load(generation, key, handle)).pipe(map((read) => answer(read, response)));
  }
}

/**
 * Sets the cached read's headers on `response` (again, for the request that read it) and gives its
 * body as the JSON text it was serialized to once: Express sends a string as it is, with the
 * `application/json; charset=utf-8` that `res.json` would have set, and nothing serializes it again.
 */
function answer(read: CachedAnswer, response: Response): string | undefined {
  for (const [name, value] of read.headers) response.setHeader(name, value);
  if (read.json !== undefined) response.setHeader('Content-Type', 'application/json');
  return read.json;
}

function headerOf(response: Response, name: string): Array<[string, string]> {
  const value = response.getHeader(name);
  return typeof value === 'string' ? [[name, value]] : [];
}
