import { ConfigModule } from '@nestjs/config';
import { servingProblems } from './app.config.js';
import type { ConfigNamespace } from './define-config.js';

/** The namespaces of an application's module list (`gatherParts`), validated once at boot on the environment merged with `.env`. */
export const appConfigModule = (namespaces: readonly ConfigNamespace[], options?: { serving: boolean }) =>
  ConfigModule.forRoot({ isGlobal: true, cache: true, load: [...namespaces], validate: validateEnvironment(namespaces, options) });

/** Reports every bad variable at once (one round of fixes, not one per restart); duplicate namespaces or checks are a bug. */
export function validateEnvironment(
  namespaces: readonly ConfigNamespace[],
  { serving } = { serving: true },
): (env: Record<string, unknown>) => Record<string, unknown> {
  const tokens = new Set<string>();
  const checked = new Map<string, string>();
  for (const { token, checks } of namespaces) {
    if (tokens.has(token)) throw new Error(`The configuration namespace "${token}" is defined twice.`);
    tokens.add(token);
    for (const name of Object.keys(checks)) {
      const other = checked.get(name);
      if (other) throw new Error(`${name} is checked by two configuration namespaces ("${other}" and "${token}").`);
      checked.set(name, token);
    }
  }
  return (env) => {
    const problems = namespaces
      .flatMap(({ checks }) => Object.entries(checks))
      .flatMap(([name, isValid]) => {
        const value = env[name];
        if (typeof value !== 'string' || value === '') return [];
        const problem = isValid(value, env);
        return problem ? [`${name} ${problem} (got "${value}")`] : [];
      })
      .concat(serving ? servingProblems(env) : []);
    if (problems.length > 0) throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    return env;
  };
}
