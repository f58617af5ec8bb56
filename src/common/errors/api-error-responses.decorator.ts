import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { apiErrorOf, type ApiErrorDefinition } from './api-error.decorator.js';
import type { ApiException } from './api.exception.js';
import { ErrorDto } from './error.dto.js';

/** "Phrase (`code`, `code`)" per phrase, joined by "or": the errors one status answers with. */
function describe(definitions: ApiErrorDefinition[]): string {
  const codesByPhrase = new Map<string, Set<string>>();
  for (const { description, code } of definitions) codesByPhrase.set(description, (codesByPhrase.get(description) ?? new Set()).add(code));
  const phrases = [...codesByPhrase].map(([phrase, codes]) => `${phrase} (${[...codes].map((code) => `\`${code}\``).join(', ')})`);
  return `${phrases.join(' or ')}.`;
}

/** Documents an operation's error responses from its exceptions' declarations: per status, the Error body, a description, the headers. */
export const ApiErrorResponses = (...exceptions: Array<Type<ApiException>>) => {
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
