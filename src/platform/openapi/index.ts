export { buildOpenApiDocument, closeSchemas, OpenApiContributor, type OpenApiContribution } from './openapi-document.js';
export { TagContribution } from './openapi-document.js';
