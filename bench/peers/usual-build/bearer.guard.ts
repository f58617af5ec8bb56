import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { hashApiKey } from '../../../src/modules/auth/api-key.format.js';
import { bearerToken } from '../../../src/modules/auth/bearer-token.js';
import { ApiKey } from '../../../src/modules/auth/entities/api-key.entity.js';
import { Client } from '../../../src/modules/plans/entities/client.entity.js';
import { limitsFor } from '../../../src/modules/plans/plan-catalogue.js';
import type { Caller, RequestWithCaller } from './caller.js';
import { IS_PUBLIC } from './public.decorator.js';

/** How long a looked-up key is trusted, and how many are kept (the service caches for 4 s). */
const CACHE_TTL_MS = 4_000;
const CACHE_MAX = 10_000;

/**
 * The global bearer guard: the SHA-256 of the key is looked up in the service's `api_keys` table,
 * then its client for the plan's limits; found keys are cached in memory for a few seconds.
 */
@Injectable()
export class BearerGuard implements CanActivate {
  private readonly cache = new Map<string, { caller: Caller; until: number }>();

  constructor(
    private readonly reflector: Reflector,
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    @InjectRepository(Client) private readonly clients: Repository<Client>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<RequestWithCaller>();
    const key = bearerToken(request.headers.authorization);
    if (!key) throw new UnauthorizedException('Missing API key');
    const caller = await this.lookUp(hashApiKey(key));
    if (!caller) throw new UnauthorizedException('Invalid API key');
    request.caller = caller;
    return true;
  }

  private async lookUp(keyHash: string): Promise<Caller | undefined> {
    const now = Date.now();
    const cached = this.cache.get(keyHash);
    if (cached && cached.until > now) return cached.caller;
    const apiKey = await this.keys.findOne({ where: { keyHash } });
    if (!apiKey || apiKey.revokedAt || (apiKey.expiresAt && apiKey.expiresAt.getTime() <= now)) return undefined;
    const client = await this.clients.findOne({ where: { id: apiKey.clientId } });
    if (!client) return undefined;
    const caller = { keyHash, limits: limitsFor(client.plan, client) };
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(keyHash, { caller, until: now + CACHE_TTL_MS });
    return caller;
  }
}
