import { configNamespaces } from './config-registry.js';

const isSet = (env: Record<string, unknown>, name: string) => typeof env[name] === 'string' && env[name] !== '';

/**
 * Checks every variable the loaded modules read (their namespaces' checks) and reports all bad ones
 * at once, so an operator fixes a broken deployment in one round, not one variable per restart.
 */
function check(env: Record<string, unknown>, server: boolean): Record<string, unknown> {
  const problems = configNamespaces()
    .flatMap(({ checks }) => Object.entries(checks))
    .flatMap(([name, isValid]) => {
      if (!isSet(env, name)) return [];
      const problem = isValid(env[name] as string, env);
      return problem ? [`${name} ${problem} (got "${env[name] as string}")`] : [];
    });
  // The embedded PostgreSQL is a developer's; production names its database (server, tool and migrations alike).
  if (env.NODE_ENV === 'production' && !isSet(env, 'DATABASE_URL')) {
    problems.push('DATABASE_URL must be set in production (NODE_ENV=production): the embedded PostgreSQL is for development only');
  }
  // Only the server builds links: the command-line tool and the migrations need neither variable.
  if (server && env.NODE_ENV === 'production' && !isSet(env, 'PUBLIC_BASE_URL') && !isSet(env, 'ALLOWED_HOSTS')) {
    problems.push(
      'PUBLIC_BASE_URL or ALLOWED_HOSTS must be set in production (NODE_ENV=production): links are never built from an untrusted Host header',
    );
  }
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return env;
}

/** For the server, the command-line tool and the migrations. */
export const validateEnvironment = (env: Record<string, unknown>) => check(env, false);

/** The same, plus what the server alone needs; the server checks this before it builds anything. */
export const validateServerEnvironment = (env: Record<string, unknown>) => check(env, true);
