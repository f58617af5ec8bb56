/* global fetch, AbortSignal */
// The processes the benchmark starts: each server its own Node process on a free loopback port with
// its output in a log file, and the commands (git, tsc, the CLI) it runs to completion.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();

/** What every process inherits: no more, so a REDIS_URL or DATABASE_URL given to the benchmark never reaches the wrong server. */
const BASE_ENV = Object.fromEntries(
  ['PATH', 'HOME', 'TMPDIR', 'LANG'].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]),
);

// Last resort: a server still running when the benchmark exits is killed.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  return typeof address === 'object' && address ? address.port : 0;
}

export function tail(file, lines = 30) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Starts `node script` in `cwd` with `env` added (PORT and HOST set) and waits until `readyPath`
 * answers 200.
 * @param {{ name: string, script: string, cwd: string, env: Record<string, string>, readyPath: string, logFile: string }} options
 */
export async function startServer({ name, script, cwd, env, readyPath, logFile }) {
  const port = await freePort();
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [script], {
    cwd,
    env: { ...BASE_ENV, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  running.add(child);
  child.once('exit', () => running.delete(child));
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(200)) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const response = await fetch(`${base}${readyPath}`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return { pid: child.pid ?? 0, base, child, logFile };
    } catch {
      // not listening yet
    }
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not answer ${readyPath} (exit ${child.exitCode ?? child.signalCode ?? 'none'}); its log:\n${tail(logFile)}`);
}

/** Every server still running: SIGTERM, then SIGKILL after 15 s. */
export async function stopAll() {
  await Promise.all(
    [...running].map(async (child) => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }),
  );
}

/** CPU time (user + system) process `pid` has used so far, in ms: /proc/<pid>/stat counts in ticks of 10 ms. */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: state is field 3 (index 0), utime field 14, stime field 15.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Runs a command to completion; resolves with its stdout, rejects with its output.
 * @param {string} command @param {string[]} args @param {{ cwd: string, env?: Record<string, string> }} options
 */
export async function run(command, args, { cwd, env = {} }) {
  const child = spawn(command, args, { cwd, env: { ...BASE_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  // 'close', not 'exit': a process can exit before its output has been read, which on a busy
  // machine left `git rev-parse`'s answer empty.
  const [code] = await once(child, 'close');
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${stderr || stdout}`);
  return stdout;
}
