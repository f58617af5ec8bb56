import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { load } from 'js-yaml';
import { decidedRoutes } from '../support/decided-routes.js';
import { describeHouseRules } from '../support/openapi-house-rules.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

interface Schema {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  [keyword: string]: unknown;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
type SecurityRequirement = Record<string, string[]>;
interface Operation {
  operationId?: string;
  deprecated?: boolean;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
  security?: SecurityRequirement[];
  'x-required-scopes'?: string[];
}
interface OpenApiDocument {
  info: { version: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    headers?: Record<string, unknown>;
    securitySchemes?: Record<string, { type: string; scheme?: string }>;
  };
  security?: SecurityRequirement[];
}

/** The owners' reference contract, kept verbatim in the repository (CI compares it with theirs). */
const REFERENCE_FILE = resolve(process.cwd(), 'docs/contract/openapi.yaml');
const CHECKED_IN_FILE = resolve(process.cwd(), 'openapi.json');
const reference = load(readFileSync(REFERENCE_FILE, 'utf8')) as OpenApiDocument;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const operationsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
const referenceOperations = operationsOf(reference).map(({ path, method, operation }) => ({
  label: `${operation.operationId} (${method.toUpperCase()} ${path})`,
  path,
  method,
  operation,
}));
const SCHEMAS = ['Pet', 'NewPet', 'PetStatus', 'Pets', 'Error'];
/** docs/contract/decisions.md, "Keys in the client's hands": the scope of each operation, whose 403 the reference predates. */
const REQUIRED_SCOPES: Record<string, string> = { listPets: 'pets:read', getPet: 'pets:read', createPet: 'pets:write' };
const PARAMETER_CONSTRAINTS = ['type', 'format', 'minimum', 'maximum', 'default', 'maxLength', 'minLength', 'enum'];

/** A schema with `$ref`s followed and `allOf` parts merged, as a validator sees it. */
function resolveSchema(document: OpenApiDocument, schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace(/^#\/components\/schemas\//, '');
    const target = document.components.schemas[name];
    if (!target) throw new Error(`unresolvable $ref ${schema.$ref}`);
    return resolveSchema(document, target);
  }
  if (schema.allOf) {
    const { allOf, ...rest } = schema;
    return Object.assign({}, ...allOf.map((part) => resolveSchema(document, part)), rest) as Schema;
  }
  return schema;
}

function pick(schema: Schema, keywords: string[]): Record<string, unknown> {
  return Object.fromEntries(keywords.filter((keyword) => schema[keyword] !== undefined).map((keyword) => [keyword, schema[keyword]]));
}

/** What a client relies on in a schema: its type and enum, and those of each property. */
function shapeOf(document: OpenApiDocument, input: Schema): Record<string, unknown> {
  const schema = resolveSchema(document, input);
  return {
    ...pick(schema, ['type', 'format', 'enum']),
    ...(schema.required && { required: [...schema.required].sort() }),
    ...(schema.properties && {
      properties: Object.fromEntries(
        Object.entries(schema.properties).map(([name, property]) => [
          name,
          pick(resolveSchema(document, property), ['type', 'format', 'enum']),
        ]),
      ),
    }),
    ...(schema.items && { items: shapeOf(document, schema.items) }),
  };
}

function parametersOf(document: OpenApiDocument, operation: Operation) {
  return Object.fromEntries(
    (operation.parameters ?? []).map((parameter) => [
      `${parameter.in}:${parameter.name}`,
      {
        in: parameter.in,
        required: parameter.required ?? false,
        schema: pick(resolveSchema(document, parameter.schema), PARAMETER_CONSTRAINTS),
      },
    ]),
  );
}

describe('OpenAPI document (e2e)', () => {
  let t: TestApp;
  let generated: OpenApiDocument;
  const operation = (path: string, method: string): Operation => {
    const found = generated.paths[path]?.[method];
    if (!found) throw new Error(`the generated document has no ${method.toUpperCase()} ${path}`);
    return found;
  };

  beforeAll(async () => {
    // No production or staging server: the document is then the checked-in one.
    t = await createTestApp({ env: { PUBLIC_BASE_URL: '', STAGING_BASE_URL: '' } });
    generated = (await t.http().get('/docs-json').expect(200)).body as OpenApiDocument;
  });
  afterAll(() => t.close());

  it('is what the checked-in openapi.json holds', () => {
    const checkedIn: unknown = JSON.parse(readFileSync(CHECKED_IN_FILE, 'utf8'));
    try {
      expect(generated).toEqual(checkedIn);
    } catch (error) {
      throw new Error(`openapi.json is stale: run \`npm run openapi\` and commit the result.\n\n${(error as Error).message}`, {
        cause: error,
      });
    }
  });

  it('serves Swagger UI at /docs, the document at /docs-json and /docs-yaml, none of them asking for an API key', async () => {
    const ui = await t.http().get('/docs');
    expect(ui.status).toBe(200);
    expect(ui.headers['content-type']).toMatch(/^text\/html/);
    expect(ui.text).toMatch(/swagger-ui/i);

    const json = await t.http().get('/docs-json');
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);

    const yaml = await t.http().get('/docs-yaml');
    expect(yaml.status).toBe(200);
    expect(yaml.headers['content-type']).toMatch(/yaml/);
    expect(load(yaml.text)).toEqual(generated);
  });

  it('carries the version 1.0.0 and every reference operation, relative to the servers', () => {
    expect(generated.info.version).toBe('1.0.0');
    expect(reference.info.version).toBe('1.0.0');
    const generatedOperations = operationsOf(generated).map(({ path, method }) => `${method} ${path}`);
    expect(generatedOperations).toEqual(expect.arrayContaining(operationsOf(reference).map(({ path, method }) => `${method} ${path}`)));
  });

  it('adds beyond the reference only routes the decisions add, each requiring a scope of its row', () => {
    const routes = decidedRoutes();
    const inReference = new Set(operationsOf(reference).map(({ path, method }) => `${method} ${path}`));
    const beyond = operationsOf(generated).filter(({ path, method }) => !inReference.has(`${method} ${path}`));
    expect(beyond.map(({ operation }) => operation.operationId)).toEqual(expect.arrayContaining(['listKeys', 'getRateLimit', 'getUsage']));
    for (const { path, method, operation } of beyond) {
      const route = routes.find((candidate) => candidate.matches(`/v1${path}`));
      expect({ operation: `${method} ${path}`, decided: route?.path }).toEqual({
        operation: `${method} ${path}`,
        decided: expect.any(String),
      });
      expect(route!.scopes).toEqual(expect.arrayContaining(operation['x-required-scopes'] ?? []));
    }
  });

  it('names the relative /v1 as the first server, and every server ends in /v1', () => {
    const urls = (generated.servers ?? []).map((server) => server.url);
    expect(urls[0]).toBe('/v1');
    expect(reference.servers?.[0]?.url).toBe('/v1');
    for (const url of urls) expect(url).toMatch(/\/v1$/);
  });

  it('adds PUBLIC_BASE_URL and STAGING_BASE_URL as the second and third servers when they are set', async () => {
    const [production, staging] = (reference.servers ?? []).slice(1).map((server) => server.url);
    const withServers = await createTestApp({ env: { PUBLIC_BASE_URL: production, STAGING_BASE_URL: staging } });
    try {
      const res = await withServers.http().get('/docs-json').expect(200);
      const urls = (res.body as OpenApiDocument).servers?.map((server) => server.url);
      expect(urls).toEqual(['/v1', production, staging]);
      for (const url of urls ?? []) expect(url).toMatch(/\/v1$/);
    } finally {
      await withServers.close();
    }
  });

  it("documents getPet's sunset as configured (GET_PET_SUNSET), in its description and the Sunset example", async () => {
    const getPet = (document: OpenApiDocument) =>
      document.paths['/pets/{petId}'].get as Operation & {
        description: string;
        responses: Record<string, { headers: Record<string, { schema: { example: string } }> }>;
      };
    expect(getPet(generated).description).toMatch(/^Deprecated; removed on 5 December 2030\./);
    expect(getPet(generated).responses['200'].headers.Sunset.schema.example).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    const moved = await createTestApp({ env: { GET_PET_SUNSET: '2031-03-01T00:00:00Z' } });
    try {
      const document = (await moved.http().get('/docs-json').expect(200)).body as OpenApiDocument;
      expect(getPet(document).description).toMatch(/^Deprecated; removed on 1 March 2031\./);
      expect(getPet(document).responses['200'].headers.Sunset.schema.example).toBe('Sat, 01 Mar 2031 00:00:00 GMT');
    } finally {
      await moved.close();
    }
  });

  describe.each(referenceOperations)('$label', ({ path, method, operation: expected }) => {
    it('has the reference operation id', () => {
      expect(operation(path, method).operationId).toBe(expected.operationId);
    });

    it('has the reference parameters: location, required and schema constraints', () => {
      expect(parametersOf(generated, operation(path, method))).toEqual(parametersOf(reference, expected));
    });

    it('documents the reference response status codes, and 403 for its scope', () => {
      expect(Object.keys(operation(path, method).responses).sort()).toEqual([...Object.keys(expected.responses), '403'].sort());
    });

    it('names the scope it requires, and documents its 403 insufficient_scope with the challenge', () => {
      const { 'x-required-scopes': scopes, responses } = operation(path, method);
      expect(scopes).toEqual([REQUIRED_SCOPES[expected.operationId!]]);
      expect(responses['403']).toMatchObject({
        description: expect.stringContaining('`insufficient_scope`'),
        headers: { 'WWW-Authenticate': expect.any(Object) },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      });
    });

    it(`is ${expected.deprecated ? '' : 'not '}deprecated, as in the reference`, () => {
      expect(operation(path, method).deprecated ?? false).toBe(expected.deprecated ?? false);
    });

    it('is secured with the HTTP bearer scheme', () => {
      const bearerSchemes = Object.entries(generated.components.securitySchemes ?? {})
        .filter(([, scheme]) => scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer')
        .map(([name]) => name);
      expect(bearerSchemes.length).toBeGreaterThan(0);
      const requirements = operation(path, method).security ?? generated.security ?? [];
      expect(requirements.some((requirement) => Object.keys(requirement).some((name) => bearerSchemes.includes(name)))).toBe(true);
    });
  });

  it('deprecates getPet and nothing else', () => {
    const deprecated = operationsOf(generated)
      .filter(({ operation: op }) => op.deprecated)
      .map(({ operation: op }) => op.operationId);
    expect(deprecated).toEqual(['getPet']);
  });

  it('requires a JSON NewPet body on createPet', () => {
    const body = operation('/pets', 'post').requestBody;
    expect(body?.required).toBe(true);
    expect(shapeOf(generated, body!.content['application/json'].schema)).toEqual(
      shapeOf(reference, { $ref: '#/components/schemas/NewPet' }),
    );
  });

  it('declares the quota headers, and Retry-After, as required headers', () => {
    const headers = generated.components.headers as Record<string, { required?: boolean; schema?: object }>;
    for (const name of [
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'RateLimit-Policy',
      'RateLimit',
      'Retry-After',
    ]) {
      expect(headers[name]).toMatchObject({ required: true, schema: expect.any(Object) });
    }
  });

  it('declares the bearer security scheme like the reference', () => {
    expect(reference.components.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(generated.components.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it.each(SCHEMAS)('has the schema %s with the reference required fields, property types and enums', (name) => {
    expect(generated.components.schemas[name]).toBeDefined();
    expect(shapeOf(generated, generated.components.schemas[name])).toEqual(shapeOf(reference, reference.components.schemas[name]));
  });

  describeHouseRules('of the service', () => ({
    app: t,
    operations: ['listPets', 'createPet', 'getPet', 'getRateLimit', 'listKeys', 'createKey', 'rollKey', 'revokeKey', 'getUsage'],
  }));
});
