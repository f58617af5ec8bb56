import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

const MAIN = resolve('dist/src/main.js');
const READY_TIMEOUT_MS = 30_000;
/** How much of a process's output is kept for the error message when it fails. */
const OUTPUT_KEPT = 8_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A free port below the kernel's ephemeral range (32768 and up), so no `listen(0)` of a suite
 * running beside this one can take it between this check and the server's own listen: the
 * readiness a suite waits for must come from its own server.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
}

/**
 * One replica of the BUILT service (`node dist/src/main.js`, as the container runs it) on a
 * loopback port, with the environment the caller gives. `start()` resolves once `/health/ready`
 * answers 200; `stop()` sends SIGTERM and waits for the exit (SIGKILL past its bound), so it can
 * be started again on the same port, as an orchestrator's rolling restart does. `dist/` must be
 * built (jest's global setup does it).
 */
export class ServiceProcess {
  private child?: ChildProcess;
  private output = '';

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
    /** The working directory: where the embedded default keeps its data/postgres. */
    private readonly cwd?: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error(`service on ${this.port}: already running`);
    this.output = '';
    const child = spawn(process.execPath, [MAIN], {
      cwd: this.cwd,
      env: { PATH: process.env.PATH ?? '', ...this.env, HOST: '127.0.0.1', PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8').on('data', (chunk: string) => (this.output = (this.output + chunk).slice(-OUTPUT_KEPT)));
    }
    try {
      await this.untilReady();
    } catch (error) {
      await this.kill();
      throw error;
    }
  }

  /** Waits (bounded) until `/health/ready` answers 200; resolves with how long that took. */
  async untilReady(): Promise<number> {
    const started = performance.now();
    while ((await this.readiness()) !== 200) {
      if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null || performance.now() - started > READY_TIMEOUT_MS) {
        throw new Error(`service on ${this.port} was not ready within ${READY_TIMEOUT_MS} ms; its output:\n${this.output}`);
      }
      await sleep(100);
    }
    return performance.now() - started;
  }

  /** SIGTERM, then the exit: the readiness delay, in-flight requests, closing. Resolves with its duration. */
  async stop(boundMs: number): Promise<{ ms: number; exit: string }> {
    const child = this.child;
    if (!child) return { ms: 0, exit: 'not running' };
    const started = performance.now();
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), boundMs);
    const [code, signal] = await exited;
    clearTimeout(timer);
    this.child = undefined;
    return { ms: performance.now() - started, exit: signal ?? String(code) };
  }

  /** Ends the process at once (clean-up after a failure). */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** The last lines the process printed (its JSON log). */
  log(): string {
    return this.output;
  }

  private readiness(): Promise<number> {
    return fetch(`${this.url}/health/ready`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status,
      () => 0,
    );
  }
}
