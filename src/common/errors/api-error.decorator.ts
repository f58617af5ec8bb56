import { applyDecorators, type HttpStatus } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import { ErrorDto } from './error.dto.js';

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

/** An exception class, whatever its constructor. */
export type ErrorClass = abstract new (...args: never) => Error;

const API_ERROR = Symbol('apiError');

/** Declares an exception's place in the error catalogue: the Error schema's codes and `@ApiErrorResponses(...)` are built from it. */
export function ApiError(definition: ApiErrorDefinition): ClassDecorator {
  if (!/^[a-z][a-z0-9_]*$/.test(definition.code)) throw new Error(`"${definition.code}" is not an error code (^[a-z][a-z0-9_]*$).`);
  return (target) => Reflect.defineMetadata(API_ERROR, definition, target);
}

/** The declaration of an exception class, or of its nearest declared ancestor (metadata is looked up the prototype chain). */
export function apiErrorOf(type: ErrorClass): ApiErrorDefinition {
  const definition = Reflect.getMetadata(API_ERROR, type) as ApiErrorDefinition | undefined;
  if (!definition) throw new Error(`${type.name} has no @ApiError declaration.`);
  return definition;
}

/** Lists in the Error schema the codes of a document's exceptions, each once, by status, in the order the modules declared them. */
export function describeErrorCodes(document: OpenAPIObject, exceptions: readonly ErrorClass[]): void {
  const codes = new Set([...exceptions.map(apiErrorOf)].sort((a, b) => a.status - b.status).map(({ code }) => code));
  const code = (document.components!.schemas!.Error as { properties: Record<string, { description?: string }> }).properties.code;
  code.description = `Machine-readable error code: ${[...codes].join(', ')}.`;
}

/** "Phrase (`code`, `code`)" per phrase, joined by "or": the errors one status answers with. */
function describe(definitions: ApiErrorDefinition[]): string {
  const codesByPhrase = new Map<string, Set<string>>();
  for (const { description, code } of definitions) codesByPhrase.set(description, (codesByPhrase.get(description) ?? new Set()).add(code));
  const phrases = [...codesByPhrase].map(([phrase, codes]) => `${phrase} (${[...codes].map((code) => `\`${code}\``).join(', ')})`);
  return `${phrases.join(' or ')}.`;
}

/** Documents an operation's error responses from its exceptions' declarations: per status, the Error body, a description, the headers. */
export const ApiErrorResponses = (...exceptions: ErrorClass[]) => {
  const byStatus = new Map<number, ApiErrorDefinition[]>();
  for (const definition of exceptions.map(apiErrorOf))
    byStatus.set(definition.status, [...(byStatus.get(definition.status) ?? []), definition]);
  return applyDecorators(
    ApiExtraModels(ErrorDto),
    ...[...byStatus].map(([status, definitions]) => {
      const headers = Object.assign({}, ...definitions.map((definition) => definition.headers)) as ApiErrorDefinition['headers'];
      return ApiResponse({
        status,
        description: describe(definitions),
        headers: Object.keys(headers!).length > 0 ? headers : undefined,
        content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorDto) } } },
      });
    }),
  );
};
