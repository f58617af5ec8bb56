import { configNamespaces } from './config-registry.js';

/**
 * Checks every environment variable the loaded modules read and reports all bad ones at once,
 * so an operator fixes a broken deployment in one round instead of one variable per restart.
 * The checks come from the configuration namespaces the modules define (defineConfig).
 */
const isSet = (env: Record<string, unknown>, name: string) => typeof env[name] === 'string' && env[name] !== '';

type CombinedCheck = (env: Record<string, unknown>) => string | undefined;

/** What only the server needs: the command-line tool and the migrations build no links. */
const SERVER_CHECKS: CombinedCheck[] = [
  (env) =>
    env.NODE_ENV === 'production' && !isSet(env, 'PUBLIC_BASE_URL') && !isSet(env, 'ALLOWED_HOSTS')
      ? 'PUBLIC_BASE_URL or ALLOWED_HOSTS must be set in production (NODE_ENV=production): links are never built from an untrusted Host header'
      : undefined,
];

function check(env: Record<string, unknown>, combined: CombinedCheck[]): Record<string, unknown> {
  const problems = configNamespaces()
    .flatMap(({ checks }) => Object.entries(checks))
    .flatMap(([name, isValid]) => {
      if (!isSet(env, name)) return [];
      const problem = isValid(env[name] as string, env);
      return problem ? [`${name} ${problem} (got "${env[name] as string}")`] : [];
    });
  problems.push(...combined.flatMap((rule) => rule(env) ?? []));
  if (problems.length > 0) {
    throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return env;
}

/** Every variable the loaded modules read (the server, the command-line tool and the migrations). */
export const validateEnvironment = (env: Record<string, unknown>) => check(env, []);

/** The same, plus what the server alone needs; the server checks this before it builds anything. */
export const validateServerEnvironment = (env: Record<string, unknown>) => check(env, SERVER_CHECKS);
