import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';

const OWN_DOCUMENT = Symbol('openapi:ownDocument');

/** Marks a Nest module whose operations have an OpenAPI document of their own (the admin API's): the public one leaves them out. */
export const OwnOpenApiDocument = (): ClassDecorator => (target) => Reflect.defineMetadata(OWN_DOCUMENT, true, target);

/** The modules the public document describes: all but those with a document of their own. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- Nest modules are classes of any constructor
export function publiclyDocumentedModules(app: INestApplication): Function[] {
  return [...app.get(ModulesContainer).values()].map(({ metatype }) => metatype).filter((type) => !Reflect.getMetadata(OWN_DOCUMENT, type));
}
