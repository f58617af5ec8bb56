import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestApp } from './test-app.js';

interface Response {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: { $ref?: string } }>;
}
interface Operation {
  operationId?: string;
  responses: Record<string, Response>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit'];

/** Lints a document with the project's Spectral rules (spectral:oas and OWASP, .spectral.mjs): its errors, none when it passes. */
export function spectralErrors(document: object): string {
  const directory = mkdtempSync(join(tmpdir(), 'pets-openapi-'));
  try {
    const file = join(directory, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const lint = spawnSync('node_modules/.bin/spectral', ['lint', file, '--ruleset', '.spectral.mjs', '--fail-severity', 'error'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    return lint.status === 0 ? '' : lint.stdout + lint.stderr;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * What every operation of the public document keeps, whichever module it comes from (docs/extending.md):
 * its handler's name as operation id, the quota headers on each response and Retry-After on a 429,
 * the Error body on every error, and the Spectral rules the checked-in document passes.
 */
export function describeHouseRules(name: string, given: () => { app: TestApp; operations: string[] }): void {
  describe(`the OpenAPI house rules, ${name}`, () => {
    let document: Document;
    const operationsOf = () =>
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, operation]) => ({ at: `${method} ${path}`, operation })),
      );

    beforeAll(async () => {
      document = (await given().app.http().get('/docs-json').expect(200)).body as Document;
    });

    it('names each operation after its handler', () => {
      expect(operationsOf().map(({ operation }) => operation.operationId)).toEqual(expect.arrayContaining(given().operations));
    });

    it('documents the quota headers on every response, Retry-After on a 429, and the Error body of every error', () => {
      for (const { at, operation } of operationsOf()) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const headers = status === '429' ? [...RATE_LIMIT_HEADERS, 'Retry-After'] : RATE_LIMIT_HEADERS;
          const documented = headers.filter(
            (header) => (response.headers?.[header] as { $ref?: string })?.$ref === `#/components/headers/${header}`,
          );
          expect({ at: `${at} ${status}`, headers: documented }).toEqual({ at: `${at} ${status}`, headers });
          if (Number(status) >= 400) {
            expect({ at: `${at} ${status}`, body: response.content?.['application/json']?.schema?.$ref }).toEqual({
              at: `${at} ${status}`,
              body: '#/components/schemas/Error',
            });
          }
        }
      }
    });

    it('passes the Spectral rules (spectral:oas and OWASP) without an error', () => {
      expect(spectralErrors(document)).toBe('');
    }, 60_000);
  });
}
