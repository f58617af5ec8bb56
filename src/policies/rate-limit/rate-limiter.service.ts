import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Span } from '@opentelemetry/api';
import type { Request } from 'express';
import { RequestAuthenticator } from '../../modules/auth/index.js';
import { ClsService } from 'nestjs-cls';
import { Clock, type RequestContext } from '../../common/index.js';
import type { RedisConfig } from '../../platform/redis/index.js';
import { inSpan } from '../../platform/tracing/index.js';
import type { RateLimitConfig } from './rate-limit.config.js';
import { ClientsService, limitsFor } from '../../modules/plans/index.js';
import { DataGeneration } from '../read-cache/index.js';
import { DAY_MS, LimiterStore, type BanPolicy, type LimiterRequest } from './limiter.store.js';
import { decide, readingOf, type RateLimitDecision } from './rate-limit.decision.js';
import { RateLimitMetrics } from './rate-limit.metrics.js';
import { anonymousSubject, ThrottledAddresses } from './throttled-addresses.js';

const ANONYMOUS = 'anonymous';
/** Whose addresses a subject key counts: callers of the public port without a valid key. */
const PUBLIC_REALM = 'ip';

/** A counted decision on a valid key, at the time of the limiter's own clock (Redis's, with Redis), with the client's day so far. */
export type KeyDecision = {
  clientId: number;
  keyId: number;
  outcome: 'admitted' | 'refused' | 'suspended';
  nowMs: number;
  plan: string;
  /** The client's UTC day: admitted so far, its quota, and when it ends (the limiter's clock). */
  day: { used: number; limit: number; resetMs: number };
};

export type KeyDecisionListener = (decision: KeyDecision) => void;

/** What the store is asked, with the plan it is decided on and, for a valid key, its client. */
type Subject = LimiterRequest & { plan: string; clientId?: number };
type Operation = 'consume' | 'peek';

/** Decides each `/v1` request against a valid key's client, else its address; its round trip also reads `DataGeneration.redisKey`. */
@Injectable()
export class RateLimiterService {
  private readonly rateLimit = this.config.getOrThrow<RateLimitConfig>('rateLimit');
  private readonly keyPrefix = `${this.config.getOrThrow<RedisConfig>('redis').keyPrefix}rl:`;
  private readonly anonymousLimits = limitsFor(this.rateLimit.anonymousPlan);
  private readonly ban: BanPolicy = { threshold: this.rateLimit.banThreshold, durationMs: this.rateLimit.banSeconds * 1000 };
  private readonly throttled = new ThrottledAddresses(this.clock);
  private readonly listeners: KeyDecisionListener[] = [];

  constructor(
    private readonly store: LimiterStore,
    private readonly authenticator: RequestAuthenticator,
    private readonly clients: ClientsService,
    private readonly metrics: RateLimitMetrics,
    private readonly generation: DataGeneration,
    private readonly cls: ClsService<RequestContext>,
    private readonly clock: Clock,
    private readonly config: ConfigService,
  ) {}

  /** Called in process with each decision that counted a valid key's request; a listener must not throw or wait. */
  onDecision(listener: KeyDecisionListener): void {
    this.listeners.push(listener);
  }

  /** A span of its own, around the key lookup and the store's call; `peek` reads a valid key's quota without counting it. */
  check(request: Request, operation: Operation = 'consume'): Promise<RateLimitDecision> {
    return inSpan('rate_limit.decision', async (span) => this.decide(await this.subjectOf(request), operation, span));
  }

  /** For a listener with credentials of its own (the admin tokens): a request presenting none valid is counted as anonymous. */
  checkUnauthenticated(realm: string, address: string | undefined): Promise<RateLimitDecision> {
    return this.decide(this.anonymousIn(realm, address), 'consume');
  }

  private async decide({ plan, clientId, ...limiterRequest }: Subject, operation: Operation, span?: Span): Promise<RateLimitDecision> {
    // A caller without a valid key is counted per address whatever it asks for (docs/contract/decisions.md).
    const peeks = operation === 'peek' && limiterRequest.keyId !== undefined;
    const facts = peeks ? await this.store.peek(limiterRequest) : await this.store.consume(limiterRequest);
    if (limiterRequest.alsoReadKey !== undefined) this.cls.set('dataGenerations', facts.alsoRead);
    // A reading decides nothing (a suspended key's is still a suspension); a peek counts nothing, even a suspended key's.
    if (facts.outcome !== 'read') {
      this.metrics.decisions.inc({ plan, outcome: facts.outcome });
      if (clientId !== undefined && !peeks) {
        const day = { used: facts.usedDay, limit: limiterRequest.limits.perDay, resetMs: (Math.floor(facts.nowMs / DAY_MS) + 1) * DAY_MS };
        const counted = { clientId, keyId: limiterRequest.keyId!, outcome: facts.outcome, nowMs: facts.nowMs, plan, day };
        for (const listener of this.listeners) listener(counted);
      }
    }
    if (span?.isRecording()) {
      const attributes = { operation, outcome: facts.outcome, plan, store: facts.store };
      for (const [name, value] of Object.entries(attributes)) span.setAttribute(`pets.rate_limit.${name}`, value);
    }
    const decision = decide(facts, limiterRequest.limits);
    if (peeks) this.cls.set('quota', readingOf(plan, facts, limiterRequest.limits));
    if (plan === ANONYMOUS && decision.retryAfterSeconds !== undefined) {
      this.throttled.refuse(limiterRequest.subjectKey, decision.retryAfterSeconds * 1000);
    }
    return decision;
  }

  /** Whether `address` may have one more unfamiliar credential looked up in `realm` (and counts it): a refused one gets a trickle. */
  mayLookUpUnfamiliar(realm: string, address: string | undefined): boolean {
    return this.throttled.mayLookUp(this.addressKey(realm, address));
  }

  private addressKey(realm: string, address: string | undefined): string {
    return `${this.keyPrefix}{${realm}:${anonymousSubject(address)}}`;
  }

  private anonymousIn(realm: string, address: string | undefined): Subject {
    return { plan: ANONYMOUS, subjectKey: this.addressKey(realm, address), limits: this.anonymousLimits, ban: this.ban };
  }

  private async subjectOf(request: Request): Promise<Subject> {
    const alsoReadKey = this.generation.redisKey;
    const address = { ...this.anonymousIn(PUBLIC_REALM, request.ip), alsoReadKey };
    // A refused address's key is looked up only if this service may have issued it: guesses cost the
    // database nothing, and a valid key is decided on its client's quota whatever its neighbours sent.
    if (this.throttled.isRefused(address.subjectKey) && (await this.authenticator.presentsForeignKey(request))) return address;
    const identity = await this.authenticator.identify(request);
    if (identity.kind !== 'valid') return address;
    const { clientId, keyId } = identity.principal;
    const { plan, limits } = await this.clients.quotaOf(clientId);
    return { plan, clientId, subjectKey: `${this.keyPrefix}{c:${clientId}}`, keyId, limits, ban: this.ban, alsoReadKey };
  }
}
