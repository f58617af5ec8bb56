import type { HttpStatus } from '@nestjs/common';

/** A header an error response carries, as the OpenAPI document describes it. */
export interface DocumentedHeader {
  description: string;
  schema: object;
}

/** What an ApiException subclass answers, and how the documentation describes it. */
export interface ApiErrorDefinition {
  status: HttpStatus;
  /** The stable machine-readable code of the Error object (`^[a-z][a-z0-9_]*$`). */
  code: string;
  /**
   * The phrase the documented response uses, such as "Body over the size limit"; the codes follow
   * it in parentheses, and errors of one status that share a phrase share it.
   */
  description: string;
  /** Headers the response always carries, documented on each operation that lists the error. */
  headers?: Record<string, DocumentedHeader>;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- any class, whatever its constructor
const definitions = new Map<Function, ApiErrorDefinition>();

/**
 * Declares an exception's place in the error catalogue. The module that owns the error declares
 * it on its class; the Error schema's list of codes and each operation's documented error
 * responses (`@ApiErrorResponses(...)`) are built from these declarations.
 */
export function ApiError(definition: ApiErrorDefinition): ClassDecorator {
  if (!/^[a-z][a-z0-9_]*$/.test(definition.code)) throw new Error(`"${definition.code}" is not an error code (^[a-z][a-z0-9_]*$).`);
  return (target) => {
    definitions.set(target, definition);
  };
}

/** The declaration of an exception class (or of its nearest declared ancestor). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- any class, whatever its constructor
export function apiErrorOf(type: Function): ApiErrorDefinition {
  for (let current: unknown = type; typeof current === 'function'; current = Object.getPrototypeOf(current)) {
    const definition = definitions.get(current);
    if (definition) return definition;
  }
  throw new Error(`${type.name} has no @ApiError declaration.`);
}

/** Every declared error code once, by status, in the order the modules declared them. */
export function errorCatalogue(): Array<Pick<ApiErrorDefinition, 'status' | 'code'>> {
  const byCode = new Map<string, ApiErrorDefinition>();
  for (const definition of definitions.values()) if (!byCode.has(definition.code)) byCode.set(definition.code, definition);
  return [...byCode.values()].sort((a, b) => a.status - b.status).map(({ status, code }) => ({ status, code }));
}
