import type { Response } from 'supertest';
import type { TestApp } from './test-app.js';

/**
 * Sends `count` identical creations at once (same headers, so the same Idempotency-Key), spread in
 * turn over `instances` of the service, and checks that they answer as one creation: a 201 with one
 * body and `Location`, or 409 while that creation ran. Returns the responses.
 */
export async function sendIdenticalCreations(
  instances: TestApp[],
  { headers, body, count }: { headers: Record<string, string>; body: object; count: number },
): Promise<Response[]> {
  const responses = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      instances[i % instances.length]
        .http()
        .post('/v1/pets')
        .set(headers)
        .send(body)
        .then((res) => res),
    ),
  );
  const created = responses.filter((res) => res.status === 201);
  expect(responses.filter((res) => res.status !== 201 && res.status !== 409).map((res) => [res.status, res.body])).toEqual([]);
  expect(created.length).toBeGreaterThan(0);
  expect(new Set(created.map((res) => res.text)).size).toBe(1);
  expect(new Set(created.map((res) => res.headers.location)).size).toBe(1);
  return responses;
}
