import type { ConfigNamespace } from './define-config.js';

const isSet = (env: Record<string, unknown>, name: string) => typeof env[name] === 'string' && env[name] !== '';

/**
 * Checks every variable the namespaces read and reports all bad ones at once, so an operator fixes a
 * broken deployment in one round, not one variable per restart. Two namespaces of one name, or a
 * variable checked by two, are a mistake of the module list.
 */
export function validateEnvironment(namespaces: readonly ConfigNamespace[]): (env: Record<string, unknown>) => Record<string, unknown> {
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
        if (!isSet(env, name)) return [];
        const problem = isValid(env[name] as string, env);
        return problem ? [`${name} ${problem} (got "${env[name] as string}")`] : [];
      });
    if (problems.length > 0) throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    return env;
  };
}
