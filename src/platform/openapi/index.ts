export { buildOpenApiDocument, closeSchemas, OpenApiContributor, OpenApiModule, type OpenApiContribution } from './openapi-document.js';
