import type { Redis } from 'ioredis';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { REDIS_CLIENT } from '../../src/platform/redis/redis.module.js';
import { monitorCommands } from '../support/redis-monitor.js';
import { redisReplicas } from '../support/redis-replicas.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import type { TestApp } from '../support/test-app.js';

/** Runs against the real Redis named by REDIS_URL (CI sets it); never skipped once selected. */
const REDIS_URL = process.env.REDIS_URL!;

interface Window {
  limit: number;
  remaining: number;
  reset: number;
}

describe('GET /v1/rate_limit on Redis (integration)', () => {
  const replicas = redisReplicas();
  const listen = async (app: TestApp) => (await app.app.listen(0, '127.0.0.1'), await app.app.getUrl());
  const send = (url: string, path: string, key: string) => fetch(`${url}/v1/${path}`, { headers: { Authorization: `Bearer ${key}` } });
  const statusOf = async (url: string, key: string) => {
    const res = await send(url, 'rate_limit', key);
    expect(res.status).toBe(200);
    return {
      body: (await res.json()) as { plan: string; minute: Window; day: Window },
      remaining: res.headers.get('x-ratelimit-remaining'),
    };
  };
  const countedRemaining = async (url: string, key: string) => {
    const res = await send(url, 'pets', key);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    return res.headers.get('x-ratelimit-remaining');
  };
  /** Waits until at least `seconds` remain in the current Redis minute, so a test's requests share one window. */
  const awayFromMinuteEnd = async (seconds: number) => {
    const [now] = await replicas.admin.time();
    const left = 60 - (Number(now) % 60);
    if (left < seconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
  };

  it('agrees with the next counted request on the other instance, in one EVALSHA that counts nothing', async () => {
    const [a, b] = [await replicas.start(), await replicas.start()];
    const [urlA, urlB] = [await listen(a), await listen(b)];
    const key = await a.newKey('free');
    const [{ id: clientId }] = (await a.app.get(ClientsService).list()).slice(-1);
    await awayFromMinuteEnd(15);
    for (let i = 0; i < 3; i++) await countedRemaining(urlA, key);
    // ioredis sends a script's first call as EVAL, then EVALSHA.
    await statusOf(urlB, key);

    const { stream } = b.app.get<Redis>(REDIS_CLIENT);
    const monitor = await monitorCommands(replicas.admin, (_args, source) => source === `${stream.localAddress}:${stream.localPort}`);
    const onB = await statusOf(urlB, key);
    expect((await monitor.stop()).map(([name]) => name.toLowerCase())).toEqual(['evalsha']);
    expect(onB.body).toMatchObject({ plan: 'free', minute: { limit: 60, remaining: 57 }, day: { limit: 1000, remaining: 997 } });
    expect(onB.remaining).toBe('57');
    for (let i = 0; i < 50; i++) await statusOf(urlB, key);
    expect(await replicas.admin.hget(`${replicas.env.REDIS_KEY_PREFIX}rl:{c:${clientId}}`, 'mc')).toBe('3');
    expect(await countedRemaining(urlA, key)).toBe(String(onB.body.minute.remaining - 1));

    const onA = await statusOf(urlA, key);
    expect(onA.body.minute.remaining).toBe(56);
    expect(await countedRemaining(urlB, key)).toBe('55');
  });

  it('reads what the in-process fallback counts while Redis cannot be reached', async () => {
    const target = new URL(REDIS_URL);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
    await proxy.start();
    const app = await replicas.start({ REDIS_URL: `redis://127.0.0.1:${proxy.port}${target.pathname}` });
    const url = await listen(app);
    const key = await app.newKey('pro');
    try {
      await awayFromMinuteEnd(15);
      for (let i = 0; i < 5; i++) await countedRemaining(url, key);
      expect((await statusOf(url, key)).body.minute.remaining).toBe(295);

      await proxy.cut();
      for (let i = 0; i < 2; i++) await countedRemaining(url, key);
      const during = await statusOf(url, key);
      expect(during.body.minute).toMatchObject({ limit: 300, remaining: 298 });
      expect(during.remaining).toBe('298');
      expect(await countedRemaining(url, key)).toBe('297');
    } finally {
      await proxy.cut();
    }
  });
});
