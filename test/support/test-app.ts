import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { NEST_APPLICATION_OPTIONS, configureApp } from '../../src/app.factory.js';
import { AppModule } from '../../src/app.module.js';
import { ApiKeysService } from '../../src/modules/auth/api-keys.service.js';
import { Clock } from '../../src/common/clock/clock.js';
import type { AppModuleImport } from '../../src/common/module-parts.js';
import { ExpressPrototypesAdapter } from '../../src/common/http/express-prototypes.adapter.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import type { ChangeContext } from '../../src/modules/audit/index.js';
import { migratedDatabase } from './test-databases.js';

/** The context of the changes a test makes itself, as the operator's command-line tool would. */
export const OPERATOR: ChangeContext = { actor: { kind: 'cli' } };

export interface TestAppOptions {
  /**
   * Environment for this instance only. Unless a test names a server: a migrated database of its own
   * (test/support/test-databases.ts) and the in-process limiter, whatever the surrounding environment says.
   */
  env?: Record<string, string>;
  clock?: Clock;
  /** Providers replaced for this instance (a log destination, say). */
  overrides?: Array<{ provide: unknown; useValue: unknown }>;
  /** Modules added to the application's own (a fixture module, say). */
  modules?: AppModuleImport[];
}

export interface TestApp {
  app: NestExpressApplication;
  http: () => ReturnType<typeof request>;
  dataSource: DataSource;
  /**
   * Creates a client and returns a fresh key of it: by default an enterprise client whose quota
   * no functional test reaches; quota tests name their plan.
   */
  newKey: (plan?: string, limits?: { perMinute: number; perDay: number }) => Promise<string>;
  close: () => Promise<void>;
}

const UNREACHED = { perMinute: 1_000_000, perDay: 100_000_000 };

/** Boots the real application (same factory as main.ts) with test overrides. */
export async function createTestApp({ env = {}, clock, overrides = [], modules = [] }: TestAppOptions = {}): Promise<TestApp> {
  const database = env.DATABASE_URL ? undefined : await migratedDatabase();
  const saved = { ...process.env };
  // Request lines at the default level would bury the test report; warnings and errors still show.
  Object.assign(process.env, { DATABASE_URL: database?.url, REDIS_URL: '', REDIS_CLUSTER_NODES: '', LOG_LEVEL: 'warn', ...env });
  try {
    const builder = Test.createTestingModule({ imports: [AppModule.register(modules)] });
    if (clock) builder.overrideProvider(Clock).useValue(clock);
    for (const { provide, useValue } of overrides) builder.overrideProvider(provide).useValue(useValue);
    const moduleRef = await builder.compile();
    const app = configureApp(
      moduleRef.createNestApplication<NestExpressApplication>(new ExpressPrototypesAdapter(), NEST_APPLICATION_OPTIONS),
    );
    await app.init();
    const clients = app.get(ClientsService);
    const keys = app.get(ApiKeysService);
    return {
      app,
      http: () => request(app.getHttpServer()),
      dataSource: app.get(DataSource),
      newKey: async (plan = 'enterprise', limits = plan === 'enterprise' ? UNREACHED : undefined) => {
        const client = await clients.create(`${plan} test client`, plan, limits, OPERATOR);
        return (await keys.issue(client.id, {}, OPERATOR)).key;
      },
      close: async () => {
        await app.close();
        database?.release();
      },
    };
  } finally {
    process.env = saved;
  }
}
