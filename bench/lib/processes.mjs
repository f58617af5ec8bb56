/* global fetch, AbortSignal */
// Servers started by the benchmark: each its own Node process on a free loopback port, with its
// output in a log file, stopped (and, if need be, killed) by the benchmark whatever happens.
import { spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync, readdirSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();

// Last resort: whatever is still running when the benchmark exits is killed.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A port nobody listens on right now (the kernel picks it). */
export async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Starts `node [nodeArgs] script` with `env` added to this process's environment, and waits until
 * `readyPath` answers 200.
 * @param {{ name: string, script: string, env: Record<string, string>, nodeArgs?: string[], readyPath: string, logFile: string, cwd: string }} options
 */
export async function startServer({ name, script, env, nodeArgs = [], readyPath, logFile, cwd }) {
  const port = await freePort();
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  running.add(child);
  const exited = once(child, 'exit').then(([code, signal]) => {
    running.delete(child);
    return { code, signal };
  });
  const server = { name, pid: child.pid ?? 0, port, base: `http://127.0.0.1:${port}`, logFile, child, exited };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited while starting (${child.exitCode ?? child.signalCode}); log:\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(`${server.base}${readyPath}`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stopServer(server);
      throw new Error(`${name} did not answer ${readyPath} within 60 s; log:\n${tail(logFile)}`);
    }
    await sleep(200);
  }
}

/** SIGTERM (the service's graceful shutdown), then SIGKILL if it is still there after `graceMs`. */
export async function stopServer(server, graceMs = 15_000) {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return server.exited;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    return await server.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Every server still running, stopped in parallel. */
export async function stopAll() {
  await Promise.all(
    [...running].map(async (child) => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
      clearTimeout(timer);
    }),
  );
}

/** Resident memory of a process in bytes (VmRSS). */
export function rssBytes(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

/** CPU time (user + system) a process has used so far, in ms (clock ticks of 10 ms). */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // After the command: state is field 3 (index 0), utime field 14, stime field 15.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function tail(file, lines = 30) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Runs a command to completion; resolves with its stdout, rejects with its stderr.
 * @param {string} command @param {string[]} args @param {{ env?: Record<string, string>, cwd: string }} options
 */
export async function run(command, args, { env = {}, cwd }) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Busy CPU time of the whole machine so far, in ms (all CPUs, /proc/stat). */
function machineBusyMs() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal
  return (fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]) * 10;
}

/**
 * CPU time so far of every process whose command name is one of `names`, in ms, including what
 * their exited children used (cutime + cstime): PostgreSQL runs a process per connection, and when
 * one ends (a pool closing an idle connection) its time moves to the postmaster's children's time
 * instead of vanishing from the sum.
 */
function processesCpuMs(names) {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!names.includes(name)) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * Where the machine's CPU went while `work` ran, in ms: the servers in `pids`, the stores
 * (PostgreSQL and Redis server processes), this process (the load generator), and everything else
 * (`foreignCpu`, in CPUs: 0.5 = half a CPU busy with other things on average).
 * @template T @param {number[]} pids @param {() => Promise<T>} work
 */
export async function withCpuBreakdown(pids, work) {
  const sample = () => ({
    machine: machineBusyMs(),
    server: pids.reduce((sum, pid) => sum + cpuMs(pid), 0),
    stores: processesCpuMs(['postgres', 'redis-server']),
    generator: cpuMs(process.pid),
  });
  const before = sample();
  const t0 = Date.now();
  const result = await work();
  const elapsed = Date.now() - t0;
  const after = sample();
  const used = Object.fromEntries(Object.keys(before).map((k) => [k, after[k] - before[k]]));
  const foreign = used.machine - used.server - used.stores - used.generator;
  return { result, foreignCpu: Math.max(0, foreign / Math.max(1, elapsed)), storesMs: used.stores, generatorMs: used.generator };
}
