import type { Response } from 'supertest';
import type { TestApp } from './test-app.js';

/**
 * Follows the `Link: <…>; rel="next"` headers from `first` to the last page, asking the
 * `instances` in turn (replicas serve any page of a walk), and returns the ids in the order
 * listed. Every page must answer 200.
 */
export async function walkPages(instances: TestApp[], first: string, headers: Record<string, string>): Promise<number[]> {
  const ids: number[] = [];
  let pages = 0;
  for (let url: string | undefined = first; url; pages++) {
    const res: Response = await instances[pages % instances.length].http().get(url).set(headers);
    expect(res.status).toBe(200);
    ids.push(...(res.body as Array<{ id: number }>).map((pet) => pet.id));
    url = /^<http:\/\/[^/]+([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')?.[1];
  }
  return ids;
}
