import type { Response } from 'supertest';
import type { TestApp } from './test-app.js';

/**
 * Sends `count` identical creations at once (same headers, so the same Idempotency-Key), spread in
 * turn over `instances` of the service, and checks that they answer as one creation: every one a
 * 201 with the same body and `Location`. Returns the responses.
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
  expect(responses.map((res) => res.status)).toEqual(Array(count).fill(201));
  expect(new Set(responses.map((res) => res.text)).size).toBe(1);
  expect(new Set(responses.map((res) => res.headers.location)).size).toBe(1);
  return responses;
}
