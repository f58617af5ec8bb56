// Commands the deployment checks run (kubectl, promtool, haproxy), and a named-check recorder.
import { spawnSync } from 'node:child_process';

/** Runs a command to completion; throws with its output when it fails or cannot start. */
export function run(command, args, { cwd, env } = {}) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}\n${result.stdout}${result.stderr}`);
  }
  return result.stdout + result.stderr;
}

/** Fails early, naming the package to install, when a tool the checks need is missing. */
export function requireTool(command, versionArgs, aptPackage) {
  const result = spawnSync(command, versionArgs, { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new Error(`${command} is needed: apt-get install -y --no-install-recommends ${aptPackage}`);
  }
  return (result.stdout + result.stderr).split('\n')[0].trim();
}

/** Named checks: each prints one line; the run ends with "N passed, N failed". */
export class Checks {
  passed = 0;
  failed = 0;

  async run(name, check) {
    try {
      const detail = await check();
      this.passed++;
      console.log(`ok   ${name}${detail ? `\n${indent(detail)}` : ''}`);
    } catch (error) {
      this.failed++;
      console.log(`FAIL ${name}\n${indent(error instanceof Error ? error.message : String(error))}`);
    }
  }

  summary() {
    console.log(`\n${this.passed} passed, ${this.failed} failed`);
    return this.failed === 0;
  }
}

/** Throws `message` unless `condition` holds. */
export function expect(condition, message) {
  if (!condition) throw new Error(message);
}

const indent = (text) =>
  String(text)
    .trimEnd()
    .split('\n')
    .map((line) => `     ${line}`)
    .join('\n');

/** Polls `probe` every 500 ms until it returns a truthy value (returned), or throws after `timeoutMs`. */
export async function waitFor(what, probe, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last.message}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
