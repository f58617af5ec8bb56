import { ApiKeysService, ScopeCatalogue } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';

type Operation = { operationId: string; 'x-required-scopes'?: string[] };
type Document = { paths: Record<string, Record<string, Operation>> };

/**
 * Every operation the OpenAPI document marks with a scope, found in the document rather than listed
 * here, so a new module's routes are covered the day they are added.
 */
describe('Scopes on every route (e2e)', () => {
  let t: TestApp;
  let clientId: number;
  let operations: Array<{ method: string; path: string; operationId: string; scope: string }>;

  beforeAll(async () => {
    t = await createTestApp();
    clientId = (await t.app.get(ClientsService).create('Every route', 'enterprise', { perMinute: 1_000_000, perDay: 1_000_000 }, OPERATOR))
      .id;
    const document = (await t.http().get('/docs-json')).body as Document;
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, operation]) =>
        (operation['x-required-scopes'] ?? []).map((scope) => ({ method, path, operationId: operation.operationId, scope })),
      ),
    );
  });
  afterAll(() => t.close());

  it('finds the scoped operations of every module', () => {
    expect(operations.map((o) => o.operationId)).toEqual(expect.arrayContaining(['listPets', 'getPet', 'createPet', 'listKeys']));
  });

  it('refuses each one to a key holding every scope but its own: 403 insufficient_scope naming it', async () => {
    for (const { method, path, operationId, scope } of operations) {
      const others = t.app.get(ScopeCatalogue).names.filter((s) => s !== scope);
      const { key } = await t.app.get(ApiKeysService).issue(clientId, { scopes: others }, OPERATOR);
      // The document's paths are relative to its server, /v1.
      const url = `/v1${path.replace(/\{[^}]+\}/g, '1')}`;
      const call = t.http()[method as 'get' | 'post' | 'delete' | 'put' | 'patch'];
      const res = await call(url)
        .set('Authorization', `Bearer ${key}`)
        .set('Content-Type', 'application/json')
        .send(method === 'get' || method === 'delete' ? undefined : '{}');
      expect({ operationId, status: res.status, code: res.body.code, message: res.body.message }).toEqual({
        operationId,
        status: 403,
        code: 'insufficient_scope',
        message: expect.stringContaining(scope),
      });
    }
  });
});
