export { buildOpenApiDocument, closeSchemas, OpenApiContributor, OpenApiModule, type OpenApiContribution } from './openapi-document.js';
export { TagContribution } from './openapi-document.js';
