import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HOST = '127.0.0.1';
/** The production configuration this fixture runs (compose's `fleet` profile). */
export const HAPROXY_CFG = 'docker/haproxy.cfg';
const READY_TIMEOUT_MS = 15_000;
const OUTPUT_KEPT = 16_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Replaces `pattern` in `text`, which must match exactly once: a changed file fails loudly here. */
function replaceOnce(text: string, pattern: RegExp, replacement: string | ((match: string, indent: string) => string)): string {
  const matches = text.match(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`));
  if (matches?.length !== 1) {
    throw new Error(`HAProxy fixture: ${HAPROXY_CFG} should match ${pattern} once, matched ${matches?.length ?? 0} times`);
  }
  return typeof replacement === 'string' ? text.replace(pattern, replacement) : text.replace(pattern, replacement);
}

export interface LoopbackAddressing {
  port: number;
  servers: number[];
  socket: string;
  /** `http-request` rules put in the public frontend, before the file's own: answers a later service could give. */
  rules?: string[];
}

/**
 * docker/haproxy.cfg with only its addressing changed for loopback: the public bind address, the
 * servers (one line per replica port instead of compose's DNS `server-template`, and without the
 * `resolvers` section), plus an admin socket for the test to read server states, and the test's
 * own `rules` if any. Every timeout, check, retry, reuse and error setting is the file's own.
 */
export function loopbackConfig(source: string, { port, servers, socket, rules = [] }: LoopbackAddressing): string {
  let config = replaceOnce(source, /^resolvers docker\n(?:[ \t]+.*\n)*/m, '');
  config = replaceOnce(config, /^([ \t]+)bind :8080$/m, (_, indent) =>
    [`bind ${HOST}:${port}`, ...rules].map((line) => `${indent}${line}`).join('\n'),
  );
  config = replaceOnce(
    config,
    /^([ \t]+)server-template .*$/m,
    servers.map((server, index) => `$1server api-${index + 1} ${HOST}:${server}`).join('\n'),
  );
  return replaceOnce(config, /^global\n/m, `global\n  stats socket ${socket} mode 600 level admin\n`);
}

/** The health-check timing of docker/haproxy.cfg's `default-server` line. */
export function checkTiming(source = readFileSync(HAPROXY_CFG, 'utf8')): { interMs: number; fall: number; rise: number } {
  const line = /^[ \t]+default-server (.*)$/m.exec(source)?.[1] ?? '';
  const inter = /\binter (\d+)(ms|s)\b/.exec(line);
  const fall = /\bfall (\d+)\b/.exec(line);
  const rise = /\brise (\d+)\b/.exec(line);
  if (!inter || !fall || !rise) throw new Error(`HAProxy fixture: no "default-server inter … fall … rise …" line in ${HAPROXY_CFG}`);
  return { interMs: Number(inter[1]) * (inter[2] === 's' ? 1000 : 1), fall: Number(fall[1]), rise: Number(rise[1]) };
}

export interface ServerState {
  name: string;
  /** `UP`, `DOWN`, `MAINT`, or a transition such as `UP 1/2`. */
  status: string;
  /** Times the server went down since HAProxy started. */
  downs: number;
  /** Requests it is serving now. */
  sessions: number;
}

/**
 * HAProxy (the Debian package `haproxy`, 2.6) on loopback, running docker/haproxy.cfg in front of
 * replicas on the given ports. `start()` waits until every server is UP; `servers()` reads their
 * states from the admin socket; `stop()` ends it and removes its directory. A missing binary fails
 * `start()` with what to install.
 */
export class HaProxy {
  private readonly dir = mkdtempSync(join(tmpdir(), 'pets-haproxy-'));
  private child?: ChildProcess;
  private output = '';

  constructor(
    readonly port: number,
    private readonly serverPorts: number[],
    private readonly rules: string[] = [],
  ) {}

  get url(): string {
    return `http://${HOST}:${this.port}`;
  }

  private get socket(): string {
    return join(this.dir, 'admin.sock');
  }

  async start(): Promise<void> {
    if (spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).error) {
      throw new Error('haproxy is not installed: apt-get install -y --no-install-recommends haproxy (.ci/run does)');
    }
    const config = join(this.dir, 'haproxy.cfg');
    writeFileSync(
      config,
      loopbackConfig(readFileSync(HAPROXY_CFG, 'utf8'), {
        port: this.port,
        servers: this.serverPorts,
        socket: this.socket,
        rules: this.rules,
      }),
    );
    const child = spawn('haproxy', ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8').on('data', (chunk: string) => (this.output = (this.output + chunk).slice(-OUTPUT_KEPT)));
    }
    try {
      await this.until('every server UP', async () => (await this.servers()).every((server) => server.status === 'UP'));
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Server states, from `show stat` on the admin socket. */
  servers(): Promise<ServerState[]> {
    return this.command('show stat').then((csv) => {
      const [header, ...rows] = csv.trim().split('\n');
      const columns = header.replace(/^# /, '').split(',');
      const at = (name: string) => columns.indexOf(name);
      return rows
        .map((row) => row.split(','))
        .filter((cells) => cells[at('pxname')] === 'api' && !['FRONTEND', 'BACKEND'].includes(cells[at('svname')]))
        .map((cells) => ({
          name: cells[at('svname')],
          status: cells[at('status')],
          downs: Number(cells[at('chkdown')]),
          sessions: Number(cells[at('scur')]),
        }));
    });
  }

  /** Waits (bounded) until `check` holds. */
  async until(what: string, check: () => Promise<boolean>, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check().catch(() => false))) {
      if (this.child?.exitCode !== null || Date.now() > deadline) {
        throw new Error(`HAProxy fixture: timed out waiting for ${what}; its output:\n${this.output}`);
      }
      await sleep(100);
    }
  }

  /** Waits until server `index` (0-based, in the order of the ports) has `status`. */
  untilServer(index: number, status: 'UP' | 'DOWN', timeoutMs?: number): Promise<void> {
    return this.until(`api-${index + 1} to be ${status}`, async () => (await this.servers())[index]?.status === status, timeoutMs);
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private command(line: string): Promise<string> {
    return new Promise((resolve, reject) => {
      let answer = '';
      const socket = connect(this.socket);
      socket.setTimeout(2_000, () => socket.destroy(new Error(`HAProxy admin socket: no answer to ${line}`)));
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('error', reject);
      socket.on('end', () => resolve(answer));
      socket.write(`${line}\n`);
    });
  }
}
