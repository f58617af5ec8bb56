import type { HttpStatus } from '@nestjs/common';

/** What an ApiException subclass answers, and how the documentation describes it. */
export interface ApiErrorDefinition {
  status: HttpStatus;
  /** The Error object's stable code (`^[a-z][a-z0-9_]*$`). */
  code: string;
  /** The documented response's phrase, such as "Body over the size limit"; errors of one status may share one. */
  description: string;
  /** Headers the response always carries, documented on each operation that lists the error. */
  headers?: Record<string, { description: string; schema: object }>;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- any class, whatever its constructor
const definitions = new Map<Function, ApiErrorDefinition>();

/** Declares an exception's place in the error catalogue: the Error schema's codes and `@ApiErrorResponses(...)` are built from it. */
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

/** The codes of these exceptions, each once, by status, in the order the modules declared them: a document's catalogue. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- any class, whatever its constructor
export function errorCodesOf(exceptions: readonly Function[]): string[] {
  return [...new Set([...exceptions.map(apiErrorOf)].sort((a, b) => a.status - b.status).map(({ code }) => code))];
}
