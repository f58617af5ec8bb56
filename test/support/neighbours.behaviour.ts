import { jest } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateApiKey } from '../../src/modules/auth/api-key.format.js';
import { ApiKeysRepository } from '../../src/modules/auth/api-keys.repository.js';
import { runCliInProcess } from './cli-in-process.js';
import type { TestApp } from './test-app.js';

/** What the contract promises a key made elsewhere while its address is refused: it works within a second. */
export const NEW_KEY_BOUND_MS = 1_000;

export interface Neighbourhood {
  /** The replicas, each listening on loopback: every request of the test comes from 127.0.0.1. */
  replicas: TestApp[];
  databaseUrl: string;
  /** Resolves once a burst of a few seconds stays in one minute window. */
  awayFromMinuteEnd: () => Promise<void>;
  /** Cuts the replicas off the limiter's shared store (Redis), so each counts in process; absent without one. */
  cutStore?: () => Promise<void>;
}

interface Answer {
  status: number;
  limit: string | null;
  remaining: number;
}

/**
 * A paying client behind the same address (a NAT, a proxy) as a caller without a key: the client's
 * valid key is decided on its own plan, on its first request and every one after, and guessed keys
 * from the refused address cost the database nothing. Requests go round the replicas in turn.
 */
export function describeNeighbours(name: string, open: () => Promise<Neighbourhood>, { storeOutage = false } = {}): void {
  describe(`${name}: a valid key behind a refused address`, () => {
    let hood: Neighbourhood;
    let urls: string[];
    let sent = 0;

    const call = async (key?: string): Promise<Answer> => {
      const url = urls[sent++ % urls.length];
      const res = await fetch(`${url}/v1/pets`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
      await res.arrayBuffer();
      return {
        status: res.status,
        limit: res.headers.get('x-ratelimit-limit'),
        remaining: Number(res.headers.get('x-ratelimit-remaining')),
      };
    };
    const burst = (count: number, key?: string) => Promise.all(Array.from({ length: count }, () => call(key)));
    const tally = (answers: Answer[]) => {
      const counts: Record<string, number> = {};
      for (const { status, limit } of answers) counts[`${status} limit ${limit}`] = (counts[`${status} limit ${limit}`] ?? 0) + 1;
      return counts;
    };
    /** A client and its key, made by the command-line tool: no replica has seen it. */
    const newKeyByCli = async (plan: string) => {
      const result = await runCliInProcess(['keys', 'create', '--plan', plan, '--json'], hood.databaseUrl);
      if (result.code !== 0) throw new Error(`keys create failed: ${result.stderr}`);
      return (JSON.parse(result.stdout) as { key: string }).key;
    };
    const lookupsOf = () => hood.replicas.map((replica) => jest.spyOn(replica.app.get(ApiKeysRepository), 'findUnrevokedByHash'));
    const count = (spies: ReturnType<typeof lookupsOf>) => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    /** 70 requests without a key, one after another: 60 are 401, then the address is refused. */
    const refuseTheAddress = async () => {
      const answers: Answer[] = [];
      for (let i = 0; i < 70; i++) answers.push(await call());
      expect(tally(answers)).toEqual({ '401 limit 60': 60, '429 limit 60': 10 });
    };

    beforeEach(async () => {
      hood = await open();
      urls = await Promise.all(hood.replicas.map(async ({ app }) => (await app.listen(0, '127.0.0.1'), await app.getUrl())));
      await hood.awayFromMinuteEnd();
    });

    afterEach(() => jest.restoreAllMocks());

    it('admits a free and then a pro key on their own plans, in concurrent cold bursts and on every request after', async () => {
      await refuseTheAddress();
      const [free, pro] = [await newKeyByCli('free'), await newKeyByCli('pro')];

      const freeBurst = await burst(100, free);
      console.log(`${name}, 100 concurrent requests with a cold free key from the refused address: ${JSON.stringify(tally(freeBurst))}`);
      expect(tally(freeBurst)).toEqual({ '200 limit 60': 60, '429 limit 60': 40 });
      // Counted in the client's own minute, which started with this burst: 59 down to 0.
      const remaining = freeBurst.filter((answer) => answer.status === 200).map((answer) => answer.remaining);
      expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));

      const proBurst = await burst(100, pro);
      console.log(`${name}, 100 concurrent requests with a cold pro key from the refused address: ${JSON.stringify(tally(proBurst))}`);
      expect(tally(proBurst)).toEqual({ '200 limit 300': 100 });
      for (let i = 0; i < 3; i++) {
        await sleep(2_000);
        expect(await call(pro)).toMatchObject({ status: 200, limit: '300' });
      }
    });

    it('lets 200 guessed keys cost no lookup, shares one lookup among concurrent requests, and admits a key made elsewhere within a second', async () => {
      await refuseTheAddress();
      const lookups = lookupsOf();
      const guesses = await Promise.all(Array.from({ length: 200 }, () => call(generateApiKey())));
      const guessLookups = count(lookups);
      console.log(
        `${name}, 200 guessed keys from the refused address: ${JSON.stringify(tally(guesses))}, ${guessLookups} database lookups`,
      );
      // 429 while the address's window is spent; 401 only if the limiter counted in process meanwhile (Redis slow under load).
      expect(guesses.filter(({ status }) => status !== 429 && status !== 401)).toEqual([]);
      expect(guessLookups).toBeLessThanOrEqual(10);

      // Made after the replicas loaded the keys there were: they learn of it by polling.
      const pro = await newKeyByCli('pro');
      await sleep(NEW_KEY_BOUND_MS);
      const first = await call(pro);
      console.log(`${name}, a pro key made by the command-line tool, sent ${NEW_KEY_BOUND_MS} ms later: ${JSON.stringify(first)}`);
      expect(first).toMatchObject({ status: 200, limit: '300' });

      // Every replica knows it now: a concurrent cold burst is admitted on its plan, one lookup per replica.
      const before = count(lookups);
      expect(tally(await burst(60, pro))).toEqual({ '200 limit 300': 60 });
      expect(count(lookups) - before).toBeLessThanOrEqual(hood.replicas.length - 1);
    });

    if (storeOutage)
      it('keeps 200 guessed keys free of lookups while the replicas count in process, Redis cut', async () => {
        await refuseTheAddress();
        await hood.cutStore!();
        const lookups = lookupsOf();
        // Each replica's fresh in-process window admits the address again: the guard must not look the guesses up either.
        const guesses = await Promise.all(Array.from({ length: 200 }, () => call(generateApiKey())));
        console.log(`${name}, Redis cut, 200 guessed keys: ${JSON.stringify(tally(guesses))}, ${count(lookups)} database lookups`);
        expect(guesses.filter(({ status }) => status !== 401 && status !== 429)).toEqual([]);
        expect(count(lookups)).toBeLessThanOrEqual(10);
      });
  });
}
