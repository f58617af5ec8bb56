import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { AdminTokensService, createAdminApp } from '../../src/modules/admin/index.js';
import { createTestApp, OPERATOR, type TestApp, type TestAppOptions } from '../support/test-app.js';

export interface AdminTestApp extends TestApp {
  /** The admin API's own application, on the services of `app`; `close()` closes both. */
  adminApp: NestExpressApplication;
  /** supertest on the admin application's server. */
  admin: () => ReturnType<typeof request>;
  /** A new admin token, as `admin-tokens create` makes it. */
  newAdminToken: (name?: string) => Promise<{ id: number; token: string }>;
}

/** The application and its admin API, made as the server makes it with ADMIN_PORT set (not listening: supertest serves it). */
export async function createAdminTestApp(options: TestAppOptions = {}): Promise<AdminTestApp> {
  const t = await createTestApp(options);
  const adminApp = await createAdminApp(t.app);
  await adminApp.init();
  const tokens = t.app.get(AdminTokensService);
  return {
    ...t,
    adminApp,
    admin: () => request(adminApp.getHttpServer()),
    newAdminToken: async (name = 'test operator') => {
      const { token, adminToken } = await tokens.create(name, OPERATOR);
      return { id: adminToken.id, token };
    },
  };
}
