import { defineConfig, isInteger } from '../../platform/config/index.js';

export type AdminConfig = ReturnType<typeof adminConfig>;

/** The admin API's own port: off unless ADMIN_PORT is set, and on the loopback address unless ADMIN_HOST says otherwise. */
export const adminConfig = defineConfig(
  'admin',
  {
    ADMIN_PORT: (value, env) =>
      isInteger(0, 65535)(value, env) ?? (value !== '0' && value === (env.PORT || '3000') ? 'must differ from PORT' : undefined),
    ADMIN_HOST: (value) => (value.trim() ? undefined : 'must not be empty'),
  },
  () => ({
    port: process.env.ADMIN_PORT ? Number(process.env.ADMIN_PORT) : undefined,
    host: process.env.ADMIN_HOST || '127.0.0.1',
  }),
);
