import { AppParts } from '../../src/common/index.js';
import { spectralErrors } from '../support/openapi-house-rules.js';
import { createAdminTestApp, type AdminTestApp } from './admin-app.js';

interface Operation {
  operationId: string;
  tags: string[];
  security?: Array<Record<string, string[]>>;
  requestBody?: unknown;
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: unknown }>;
}
interface Document {
  servers: Array<{ url: string }>;
  security: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { type?: string; additionalProperties?: boolean; properties?: Record<string, { description?: string }> }>;
  };
}

const OPERATIONS = {
  'post /admin/v1/clients': ['createClient', ['201', '400', '401', '413', '415', '429', '500', '503']],
  'get /admin/v1/clients': ['listClients', ['200', '400', '401', '429', '500', '503']],
  'get /admin/v1/clients/{clientId}': ['getClient', ['200', '400', '401', '404', '429', '500', '503']],
  'put /admin/v1/clients/{clientId}/plan': ['setClientPlan', ['200', '400', '401', '404', '413', '415', '429', '500', '503']],
  'post /admin/v1/clients/{clientId}/keys': ['createClientKey', ['201', '400', '401', '404', '413', '415', '429', '500', '503']],
  'get /admin/v1/clients/{clientId}/keys': ['listClientKeys', ['200', '400', '401', '404', '429', '500', '503']],
  'post /admin/v1/clients/{clientId}/keys/{keyId}/roll': ['rollClientKey', ['201', '400', '401', '404', '413', '415', '429', '500', '503']],
  'delete /admin/v1/clients/{clientId}/keys/{keyId}': ['revokeClientKey', ['204', '400', '401', '404', '429', '500', '503']],
  'get /admin/v1/clients/{clientId}/usage': ['getClientUsage', ['200', '400', '401', '404', '429', '500', '503']],
  'get /admin/v1/audit-events': ['listAuditEvents', ['200', '400', '401', '429', '500', '503']],
} as const;

/** What every operation answers besides, a module's (`@ModuleParts({ adminControllers })`) too. */
const EVERY_OPERATION = ['400', '401', '429', '500', '503'];

/** The admin API's own document, as /admin/docs-json serves it on the admin listener. */
describe('The admin OpenAPI document (e2e)', () => {
  let t: AdminTestApp;
  let document: Document;
  /** The operations of the modules' admin controllers: held to the same rules, listed by their modules' own tests. */
  let declared: Set<string>;

  beforeAll(async () => {
    t = await createAdminTestApp();
    const res = await t.admin().get('/admin/docs-json');
    expect(res.status).toBe(200);
    document = res.body as Document;
    declared = new Set(t.app.get(AppParts).adminControllers.flatMap((controller) => Object.getOwnPropertyNames(controller.prototype)));
  });
  afterAll(() => t.close());

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ route: `${method} ${path}`, operation })),
    );

  it('describes exactly the admin operations, named after their methods, behind the admin token', () => {
    const own = operations().filter(({ operation }) => !declared.has(operation.operationId));
    expect(Object.fromEntries(own.map(({ route, operation }) => [route, operation.operationId]))).toEqual(
      Object.fromEntries(Object.entries(OPERATIONS).map(([route, [operationId]]) => [route, operationId])),
    );
    expect(document.servers.map(({ url }) => url)).toEqual(['/']);
    expect(document.security).toEqual([{ adminToken: [] }]);
    expect(JSON.stringify(document)).not.toMatch(/"\/v1\/|"\/pets|insufficient_scope/);
  });

  it('lists every answer of every operation, each error with the Error object and its codes', () => {
    for (const { route, operation } of operations()) {
      const statuses = Object.keys(operation.responses);
      if (declared.has(operation.operationId))
        expect({ route, statuses }).toEqual({ route, statuses: expect.arrayContaining(EVERY_OPERATION) });
      else
        expect({ route, statuses: statuses.sort() }).toEqual({
          route,
          statuses: [...OPERATIONS[route as keyof typeof OPERATIONS][1]].sort(),
        });
      for (const [status, response] of Object.entries(operation.responses).filter(([status]) => Number(status) >= 400)) {
        expect({ route, status, content: response.content }).toEqual({
          route,
          status,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        });
      }
      const { 401: unauthorized, 429: throttled } = operation.responses;
      expect(unauthorized.description).toBe('Missing or invalid admin token (`missing_admin_token`, `invalid_admin_token`).');
      expect(Object.keys(unauthorized.headers ?? {})).toEqual(['WWW-Authenticate']);
      expect(Object.keys(throttled.headers ?? {})).toEqual(['Retry-After']);
    }
  });

  it('catalogues the codes the admin listener answers with, and closes its schemas', () => {
    expect(document.components.schemas.Error.properties?.code.description).toBe(
      'Machine-readable error code: validation_failed, malformed_json, missing_admin_token, invalid_admin_token, not_found, ' +
        'payload_too_large, unsupported_media_type, rate_limit_exceeded, internal_error, service_unavailable.',
    );
    const open = Object.entries(document.components.schemas).filter(
      ([, schema]) => schema.type === 'object' && schema.additionalProperties !== false,
    );
    expect(open.map(([name]) => name)).toEqual([]);
  });

  it('passes the Spectral rules the public document passes (spectral:oas and OWASP), without an error', () => {
    expect(spectralErrors(document)).toBe('');
  });
});
