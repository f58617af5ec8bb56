import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 15_000;
/** Short, so a killed master is marked failed (and its slots reported uncovered) within about a second. */
const NODE_TIMEOUT_MS = 1_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Redis Cluster fixture: timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function ask<T>(port: number, command: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ host: HOST, port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    return await command(redis);
  } finally {
    redis.disconnect();
  }
}

/**
 * A real Redis Cluster of masters without replicas on loopback (`redis-server` in cluster mode,
 * no persistence, data files in a temporary directory), for suites that show what the service
 * does when one master dies. `start()` creates it and waits until every node reports the cluster
 * ok; `stop()` kills every node and removes the directory. Ports come from the caller, so
 * concurrent suites do not collide; each node also uses port + 10000 for the cluster bus.
 */
export class RedisCluster {
  private readonly dir = mkdtempSync(join(tmpdir(), 'pets-redis-cluster-'));
  private readonly processes = new Map<number, ChildProcess>();

  constructor(readonly ports: number[]) {}

  /** `host:port,…` for REDIS_CLUSTER_NODES. */
  get nodes(): string {
    return this.ports.map((port) => `${HOST}:${port}`).join(',');
  }

  async start(): Promise<void> {
    for (const port of this.ports) await this.startNode(port);
    const created = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...this.ports.map((port) => `${HOST}:${port}`), '--cluster-replicas', '0', '--cluster-yes'],
      { encoding: 'utf8', timeout: READY_TIMEOUT_MS },
    );
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    await this.untilEveryNodeSees('cluster_state:ok');
  }

  /** The port of the master that serves `key`'s slot. */
  async masterOf(key: string): Promise<number> {
    const slot = await ask(this.ports[0], (redis) => redis.cluster('KEYSLOT', key));
    const ranges = await ask(this.ports[0], (redis) => redis.cluster('SLOTS'));
    const range = ranges.find(([from, to]) => slot >= from && slot <= to);
    if (!range) throw new Error(`Redis Cluster fixture: slot ${slot} is not served`);
    return range[2][1];
  }

  /** Kills a node the hard way (SIGKILL) and waits until the other nodes have marked it failed. */
  async kill(port: number): Promise<void> {
    const node = this.processes.get(port);
    if (!node) throw new Error(`Redis Cluster fixture: no node on ${port}`);
    node.kill('SIGKILL');
    await once(node, 'exit');
    this.processes.delete(port);
    const survivor = this.ports.find((other) => other !== port)!;
    await until(`node ${port} to be marked failed`, async () =>
      (await ask(survivor, (redis) => redis.cluster('NODES') as Promise<string>))
        .split('\n')
        .some((line) => line.includes(`:${port}@`) && line.includes('fail')),
    );
  }

  /** Restarts a killed node (empty: nothing is persisted) and waits until the cluster is ok again. */
  async restart(port: number): Promise<void> {
    await this.startNode(port);
    await this.untilEveryNodeSees('cluster_state:ok');
  }

  isRunning(port: number): boolean {
    return this.processes.has(port);
  }

  async stop(): Promise<void> {
    await Promise.all(
      [...this.processes.values()].map(async (node) => {
        node.kill('SIGKILL');
        if (node.exitCode === null && node.signalCode === null) await once(node, 'exit');
      }),
    );
    this.processes.clear();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async startNode(port: number): Promise<void> {
    const node = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        HOST,
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        String(NODE_TIMEOUT_MS),
        '--cluster-require-full-coverage',
        'no',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.dir,
      ],
      { stdio: 'ignore' },
    );
    this.processes.set(port, node);
    await until(`node ${port} to answer`, async () => (await ask(port, (redis) => redis.ping())) === 'PONG');
  }

  private async untilEveryNodeSees(state: string): Promise<void> {
    for (const port of this.processes.keys()) {
      await until(`node ${port} to report ${state}`, async () => (await ask(port, (redis) => redis.cluster('INFO'))).includes(state));
    }
  }
}
