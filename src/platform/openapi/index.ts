/** The OpenAPI document: its builder, and how a module contributes to it. */
export { closeSchemas, OpenApiContributor, type OpenApiContribution } from './openapi-contribution.js';
export { buildOpenApiDocument } from './openapi-document.js';
export { OpenApiModule } from './openapi.module.js';
