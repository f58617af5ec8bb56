import type { Server } from 'node:http';
import request from 'supertest';
import { AdminListener, AdminTokensService } from '../../src/modules/admin/index.js';
import { createTestApp, OPERATOR, type TestApp, type TestAppOptions } from '../support/test-app.js';

export interface AdminTestApp extends TestApp {
  /** supertest on the admin listener's server (ADMIN_PORT=0: any free port). */
  admin: () => ReturnType<typeof request>;
  /** A new admin token, as `admin-tokens create` makes it. */
  newAdminToken: (name?: string) => Promise<{ id: number; token: string }>;
}

/** The application with its admin listener on. */
export async function createAdminTestApp(options: TestAppOptions = {}): Promise<AdminTestApp> {
  const t = await createTestApp({ ...options, env: { ADMIN_PORT: '0', ...options.env } });
  const server = t.app.get(AdminListener).server as Server;
  const tokens = t.app.get(AdminTokensService);
  return {
    ...t,
    admin: () => request(server),
    newAdminToken: async (name = 'test operator') => {
      const { token, adminToken } = await tokens.create(name, OPERATOR);
      return { id: adminToken.id, token };
    },
  };
}
