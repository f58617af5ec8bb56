export { closeSchemas, OpenApiContributor, type OpenApiContribution } from './openapi-contribution.js';
export { buildOpenApiDocument } from './openapi-document.js';
export { OpenApiModule } from './openapi.module.js';
