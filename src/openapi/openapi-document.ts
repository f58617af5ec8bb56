import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import type { AppConfig } from '../config/index.js';
import { MAX_PAGE_SIZE, PetDto } from '../pets/index.js';
import { RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from '../rate-limit/index.js';

type Servers = Pick<AppConfig, 'publicBaseUrl' | 'stagingBaseUrl'>;
type SchemaObject = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>> };

/** Closes the object schemas clients rely on, as the reference contract does. */
const CLOSED_SCHEMAS = ['Pet', 'NewPet', 'Error', 'ErrorDetail'];

type ResponseObject = { headers?: Record<string, unknown> };

const headerRefs = (headers: object) =>
  Object.fromEntries(Object.keys(headers).map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/**
 * Builds the OpenAPI document from the controllers' decorators, then adds what decorators
 * cannot say: the named `Pets` array, closed schemas, the rate-limit headers every response
 * carries, and the servers (relative `/v1` first, so Swagger UI's "Try it out" reaches the
 * instance that served it).
 */
export function buildOpenApiDocument(app: INestApplication, { publicBaseUrl, stagingBaseUrl }: Servers): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Pet Adoption Service')
    .setDescription('Browse and manage individual animals available for adoption.')
    .setVersion('1.0.0')
    .setContact('Pet Adoption Service API team', '', '')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addTag('pets', 'Animals available for adoption')
    // addSecurity rather than addBearerAuth, whose default `bearerFormat: 'JWT'` would be false: keys are opaque.
    .addSecurity('bearer', {
      type: 'http',
      scheme: 'bearer',
      description: 'The API key as a bearer token: `Authorization: Bearer <API_KEY>`.',
    })
    .addSecurityRequirements('bearer')
    .addServer('/v1', 'Local - the instance serving this document');
  if (publicBaseUrl) builder.addServer(publicBaseUrl, 'Production');
  if (stagingBaseUrl) builder.addServer(stagingBaseUrl, 'Staging');

  const document = SwaggerModule.createDocument(app, builder.build(), {
    ignoreGlobalPrefix: true,
    operationIdFactory: (_controller, method) => method,
  });
  document.openapi = '3.0.3';
  document.info.contact = { name: 'Pet Adoption Service API team' };
  document.servers = document.servers?.map((server) => ({ ...server, 'x-internal': server.url === stagingBaseUrl }));
  const schemas = (document.components!.schemas ??= {}) as Record<string, SchemaObject>;
  schemas.Pets = { type: 'array', maxItems: MAX_PAGE_SIZE, items: { $ref: getSchemaPath(PetDto) } };
  for (const name of CLOSED_SCHEMAS) if (schemas[name]) schemas[name].additionalProperties = false;
  addRateLimitHeaders(document);
  return document;
}

function addRateLimitHeaders(document: OpenAPIObject): void {
  document.components!.headers = { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER };
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations as Record<string, { responses?: Record<string, ResponseObject> }>)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        response.headers = {
          ...response.headers,
          ...headerRefs(RATE_LIMIT_HEADERS),
          ...(status === '429' ? headerRefs(RETRY_AFTER_HEADER) : {}),
        };
      }
    }
  }
}
