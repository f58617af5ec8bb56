import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { AppParts, describeErrorCodes } from '../../common/index.js';
import { closeSchemas } from '../../platform/openapi/index.js';
import { describeScopes } from '../auth/index.js';
import { ADMIN_ERRORS } from './admin.exceptions.js';
import { AUDIT_TAG } from './admin-audit.controller.js';
import { CLIENTS_TAG } from './admin-clients.controller.js';
import { KEYS_TAG } from './admin-keys.controller.js';

const RETRY_AFTER = {
  description: 'Seconds until the address may try again.',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86_400 },
};

type Operation = { tags?: string[]; responses: Record<string, { headers?: Record<string, unknown> }> };

/** The admin API's own document, served by its own application only (`/admin/docs`). */
export function buildAdminOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Pet Adoption Service: admin API')
    .setDescription(
      'Clients, plans, keys, usage and the audit log, for operators: the same rules as the command-line tool. Served on the admin listener only.',
    )
    .setVersion('1.0.0')
    .addServer('/', 'Local - the admin listener serving this document')
    .addSecurity('adminToken', {
      type: 'http',
      scheme: 'bearer',
      description: 'An admin token from `admin-tokens create`: `Authorization: Bearer <ADMIN_TOKEN>`. API keys are refused.',
    })
    .addSecurityRequirements('adminToken')
    .addTag(CLIENTS_TAG, 'Paying accounts and their plans')
    .addTag(KEYS_TAG, "A client's API keys")
    .addTag(AUDIT_TAG, 'Who changed what')
    .build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: (_controller, method) => method });
  document.openapi = '3.0.3';
  const operations = Object.values(document.paths).flatMap((item) => Object.values(item) as Operation[]);
  // The tags of the modules' admin controllers, after the admin API's own.
  const declared = new Set(document.tags?.map(({ name }) => name));
  for (const name of new Set(operations.flatMap(({ tags }) => tags ?? []))) {
    if (!declared.has(name)) document.tags = [...(document.tags ?? []), { name }];
  }
  document.servers = document.servers?.map((server) => ({ ...server, 'x-internal': true }));
  describeErrorCodes(document, ADMIN_ERRORS);
  const { auditActions, scopes } = app.get(AppParts);
  document.components!.schemas!.AuditAction = { type: 'string', enum: auditActions };
  describeScopes(document, scopes);
  const schemas = document.components!.schemas!;
  closeSchemas(
    document,
    Object.keys(schemas).filter((name) => (schemas[name] as { type?: string }).type === 'object'),
  );
  for (const operation of operations) {
    const refused = operation.responses['429'];
    if (refused) refused.headers = { ...refused.headers, 'Retry-After': RETRY_AFTER };
  }
  return document;
}
