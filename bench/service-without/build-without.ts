import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import type { NextFunction, Request, Response } from 'express';
import { configureApp, NEST_APPLICATION_OPTIONS } from '../../src/app.factory.js';
import { AppModule } from '../../src/app.module.js';
import { ExpressPrototypesAdapter } from '../../src/common/http/express-prototypes.adapter.js';
import { ApiKeysService } from '../../src/modules/auth/api-keys.service.js';
import { ClsService } from 'nestjs-cls';
import type { Authentication, RequestContext } from '../../src/common/index.js';
import { RequestAuthenticator } from '../../src/modules/auth/request-authenticator.js';
import { HttpMetrics } from '../../src/platform/metrics/http.metrics.js';
import { LimiterStore, type LimiterFacts } from '../../src/policies/rate-limit/limiter.store.js';

/** Facts of a decision made at once in process, with no write yet for the read cache. */
const answered = (outcome: 'admitted' | 'read', used: number): Promise<LimiterFacts> =>
  Promise.resolve({ outcome, store: 'in-process', usedMinute: used, usedDay: used, nowMs: Date.now(), suspendedUntilMs: 0, alsoRead: {} });

/** The limiter's store answering at once in process: admitted, nothing counted. */
class AdmittingStore extends LimiterStore {
  consume(): Promise<LimiterFacts> {
    return answered('admitted', 1);
  }
  peek(): Promise<LimiterFacts> {
    return answered('read', 0);
  }
}

/** Every request is taken for the first one's caller: no header read, no hash, no lookup (the benchmark sends one key). */
class FirstCallerAuthenticator extends RequestAuthenticator {
  private first?: Promise<Authentication>;

  override identify(request: Request): Promise<Authentication> {
    return (this.first ??= super.identify(request));
  }

  override presentsForeignKey(): Promise<boolean> {
    return Promise.resolve(false);
  }
}

/** The service as createApp() builds it, but for the feature `without` names (helmet is taken out at load). */
export async function buildWithout(without: string | undefined): Promise<NestExpressApplication> {
  const builder = Test.createTestingModule({ imports: [AppModule.register()] });
  if (without === 'metrics')
    builder.overrideProvider(HttpMetrics).useValue({ middleware: () => (_q: Request, _s: Response, next: NextFunction) => next() });
  if (without === 'limiter') builder.overrideProvider(LimiterStore).useValue(new AdmittingStore());
  if (without === 'key-lookup') {
    builder.overrideProvider(RequestAuthenticator).useFactory({
      factory: (keys: ApiKeysService, cls: ClsService<RequestContext>) => new FirstCallerAuthenticator(keys, cls),
      inject: [ApiKeysService, ClsService],
    });
  }
  const module = await builder.compile();
  const app = module.createNestApplication<NestExpressApplication>(new ExpressPrototypesAdapter(), NEST_APPLICATION_OPTIONS);
  app.enableShutdownHooks();
  return configureApp(app);
}
