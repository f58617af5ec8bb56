import { Injectable, type INestApplication, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { AppParts, describeErrorCodes } from '../../common/index.js';
import type { AppConfig } from '../config/index.js';

/** What a module adds to the OpenAPI document beyond its decorators, on a provider marked `@OpenApiContributor()`. */
export interface OpenApiContribution {
  contribute(document: OpenAPIObject): void;
}

export const OpenApiContributor = DiscoveryService.createDecorator<void>();

/** Closes object schemas clients rely on, as the reference contract does (`additionalProperties: false`). */
export function closeSchemas(document: OpenAPIObject, names: string[]): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, { additionalProperties?: boolean }>;
  for (const name of names) if (schemas[name]) schemas[name].additionalProperties = false;
}

/** A module's contribution of its tag and of closed schemas (a client may rely on no other property appearing). */
export function TagContribution(name: string, description: string, closed: string[]): Type<OpenApiContribution> {
  @OpenApiContributor()
  @Injectable()
  class TagContribution implements OpenApiContribution {
    contribute(document: OpenAPIObject): void {
      document.tags = [...(document.tags ?? []), { name, description }];
      closeSchemas(document, closed);
    }
  }
  return TagContribution;
}

/** Decorators, error catalogue, closed schemas, contributions, servers (`/v1` first: "Try it out" reaches this instance). */
export function buildOpenApiDocument(app: INestApplication, { publicBaseUrl, stagingBaseUrl }: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Pet Adoption Service')
    .setDescription('Browse and manage individual animals available for adoption.')
    .setVersion('1.0.0')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
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
  describeErrorCodes(document, app.get(AppParts).errors);
  closeSchemas(document, ['Error', 'ErrorDetail']);
  for (const { instance } of app.get(DiscoveryService).getProviders({ metadataKey: OpenApiContributor.KEY })) {
    (instance as OpenApiContribution).contribute(document);
  }
  return document;
}
