import { jest } from '@jest/globals';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, of, throwError } from 'rxjs';
import type { DataGeneration } from './data-generation.js';
import { CachedRead, InvalidatesCachedReads, ReadCacheInterceptor } from './read-cache.interceptor.js';
import type { ReadCache } from './read-cache.js';

class Routes {
  @CachedRead({ tag: 'pets', headers: ['Link'] })
  list() {}

  @InvalidatesCachedReads('pets')
  create() {}

  other() {}
}

describe('ReadCacheInterceptor', () => {
  const steps: string[] = [];
  const cache = {
    enabled: true,
    read: jest.fn<ReadCache['read']>(),
    changed: jest.fn<ReadCache['changed']>(() => Promise.resolve(void steps.push('changed'))),
  };
  const generations = { of: jest.fn<DataGeneration['of']>() };
  const config = { getOrThrow: () => ({ publicBaseUrl: 'https://api.pets.example/v1' }) } as unknown as ConfigService;
  const interceptor = new ReadCacheInterceptor(
    cache as unknown as ReadCache,
    generations as unknown as DataGeneration,
    new Reflector(),
    config,
  );
  const headers = new Map<string, string>();
  const response = { getHeader: (name: string) => headers.get(name), setHeader: (name: string, value: string) => headers.set(name, value) };
  const context = (route: keyof Routes) =>
    ({
      getHandler: () => Routes.prototype[route],
      switchToHttp: () => ({ getRequest: () => ({ originalUrl: '/v1/pets?limit=1' }), getResponse: () => response }),
    }) as unknown as ExecutionContext;
  const handling = (answer: () => ReturnType<CallHandler['handle']>): CallHandler => ({
    handle: () => {
      steps.push('handler');
      return answer();
    },
  });
  const run = async (route: keyof Routes, next: CallHandler) => lastValueFrom(await interceptor.intercept(context(route), next));

  beforeEach(() => {
    jest.clearAllMocks();
    steps.length = 0;
    headers.clear();
  });

  it('answers a cached read from the cache under the request generation, with its headers and JSON text', async () => {
    generations.of.mockReturnValue(3);
    cache.read.mockReturnValue({ json: '[1]', headers: [['Link', '<next>; rel="next"']] });
    await expect(
      run(
        'list',
        handling(() => of([2])),
      ),
    ).resolves.toBe('[1]');
    expect(generations.of).toHaveBeenCalledWith('pets');
    expect(cache.read).toHaveBeenCalledWith('pets', 3, 'https://api.pets.example/v1 /v1/pets?limit=1', expect.any(Function));
    expect(headers.get('Link')).toBe('<next>; rel="next"');
    expect(steps).toEqual([]);
  });

  it('loads a miss through the handler, keeping the headers it names', async () => {
    generations.of.mockResolvedValue(3);
    cache.read.mockImplementation((_tag, _generation, _key, load) => load());
    const next = handling(() => {
      headers.set('Link', '<n>; rel="next"');
      return of([2]);
    });
    await expect(run('list', next)).resolves.toBe('[2]');
    await expect(cache.read.mock.results[0].value).resolves.toEqual({ json: '[2]', headers: [['Link', '<n>; rel="next"']] });
  });

  it('reads the database when the generation is not known, and leaves other routes alone', async () => {
    generations.of.mockReturnValue(undefined);
    await expect(
      run(
        'list',
        handling(() => of([2])),
      ),
    ).resolves.toEqual([2]);
    await expect(
      run(
        'other',
        handling(() => of('x')),
      ),
    ).resolves.toBe('x');
    expect(cache.read).not.toHaveBeenCalled();
    expect(cache.changed).not.toHaveBeenCalled();
  });

  it('renews the cache once a write has ended, before its answer, whether it succeeded or failed', async () => {
    await expect(
      run(
        'create',
        handling(() => of({ id: 1 })),
      ),
    ).resolves.toEqual({ id: 1 });
    expect(steps).toEqual(['handler', 'changed']);
    const failure = new Error('insert failed');
    await expect(
      run(
        'create',
        handling(() => throwError(() => failure)),
      ),
    ).rejects.toBe(failure);
    expect(steps).toEqual(['handler', 'changed', 'handler', 'changed']);
    expect(cache.changed.mock.calls).toEqual([['pets'], ['pets']]);
  });
});
