import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { HaProxy, checkTiming } from '../support/haproxy.js';
import { PgBouncer } from '../support/pgbouncer.js';
import { ServiceProcess } from '../support/service-process.js';

const COMMAND_TIMEOUT_MS = 60_000;
/** Longest a replica's stop may take: the readiness delay and grace below, plus closing. */
export const STOP_BOUND_MS = 20_000;
export const QUERY_TIMEOUT_MS = 2_000;
/** Server connections PgBouncer keeps to PostgreSQL for all replicas together (each replica's pool holds 10). */
const PGBOUNCER_POOL = 10;
/**
 * PgBouncer's pause after a failed server login. Its default, 15 s, keeps every query failing for
 * up to 15 s after PostgreSQL is back; 1 s is what docs/operations.md recommends.
 */
export const SERVER_LOGIN_RETRY_SECONDS = 1;

/**
 * After SIGTERM a replica fails readiness this long before it stops accepting: one check interval
 * more than HAProxy needs (inter × fall of docker/haproxy.cfg) to take it out of rotation.
 */
export function readinessDelayMs(): number {
  const { interMs, fall } = checkTiming();
  return interMs * fall + interMs / 2;
}

export type FleetOptions = {
  /**
   * The PostgreSQL database (migrated directly, as a release step does). The replicas use it through
   * PgBouncer when `ports.pgbouncer` is given, else directly.
   */
  database: string;
  redisKeyPrefix: string;
  ports: { pgbouncer?: number; replicas: number[]; haproxy: number };
  /** Added to the replicas' environment alone (not the command-line tool's), such as the OTEL_* variables of tracing. */
  replicaEnv?: Record<string, string>;
  /** `http-request` rules for HAProxy's public frontend (test/support/haproxy.ts). */
  haproxyRules?: string[];
} & ({ redisClusterNodes: string; redisUrl?: never } | { redisUrl: string; redisClusterNodes?: never });

/**
 * The service as a fleet on loopback: PgBouncer (transaction mode) in front of PostgreSQL, if asked,
 * the migrations run once, then replicas of the built service (production mode, a Redis Cluster or
 * one Redis) and HAProxy running docker/haproxy.cfg in front of them. Every part comes from test/support.
 */
export class Fleet {
  readonly replicas: ServiceProcess[];
  readonly haproxy: HaProxy;
  private readonly pgbouncer?: PgBouncer;
  private readonly env: Record<string, string>;

  constructor(private readonly options: FleetOptions) {
    const { pgbouncer: pgbouncerPort } = options.ports;
    this.pgbouncer =
      pgbouncerPort === undefined
        ? undefined
        : new PgBouncer({
            port: pgbouncerPort,
            target: options.database,
            poolSize: PGBOUNCER_POOL,
            serverLoginRetrySeconds: SERVER_LOGIN_RETRY_SECONDS,
          });
    this.env = {
      NODE_ENV: 'production',
      DATABASE_URL: this.pgbouncer?.url ?? options.database,
      DATABASE_MIGRATIONS_RUN: 'false',
      DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
      ...(options.redisUrl === undefined ? { REDIS_CLUSTER_NODES: options.redisClusterNodes } : { REDIS_URL: options.redisUrl }),
      REDIS_KEY_PREFIX: options.redisKeyPrefix,
      ALLOWED_HOSTS: '127.0.0.1',
      // Only the balancer's forwarded headers are believed: X-Forwarded-For's last entry, which HAProxy writes.
      TRUST_PROXY: '127.0.0.1',
      SHUTDOWN_READINESS_DELAY_MS: String(readinessDelayMs()),
      SHUTDOWN_GRACE_MS: '5000',
      LOG_LEVEL: 'warn',
    };
    this.replicas = options.ports.replicas.map((port) => new ServiceProcess(port, { ...this.env, ...options.replicaEnv }));
    this.haproxy = new HaProxy(options.ports.haproxy, options.ports.replicas, options.haproxyRules);
  }

  async start(): Promise<void> {
    await this.pgbouncer?.start();
    await this.node(['node_modules/typeorm/cli.js', 'migration:run', '-d', 'dist/ormconfig.js'], { DATABASE_URL: this.options.database });
    await Promise.all(this.replicas.map((replica) => replica.start()));
    await this.haproxy.start();
  }

  /** A key made by the command-line tool (`keys create …`), as an operator makes one. */
  async newKey(...args: string[]): Promise<{ key: string; clientId: number }> {
    return JSON.parse(await this.node(['dist/src/cli.js', 'keys', 'create', ...args, '--json'])) as { key: string; clientId: number };
  }

  async stop(): Promise<void> {
    await this.haproxy.stop();
    await Promise.all(this.replicas.map((replica) => replica.kill()));
    await this.pgbouncer?.dispose();
  }

  /**
   * Never a synchronous child: a test's keep-alive connections to HAProxy idle meanwhile, and an event
   * loop blocked past the balancer's idle timeout would not see it close them before the next request.
   */
  private async node(args: string[], env: Record<string, string> = {}): Promise<string> {
    try {
      const { stdout } = await promisify(execFile)(process.execPath, args, {
        env: { PATH: process.env.PATH ?? '', ...this.env, ...env },
        encoding: 'utf8',
        timeout: COMMAND_TIMEOUT_MS,
      });
      return stdout;
    } catch (error) {
      const { stdout = '', stderr = '', message } = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`node ${args.join(' ')} failed (${message}):\n${stdout}${stderr}`, { cause: error });
    }
  }
}
