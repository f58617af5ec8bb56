import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsString } from 'class-validator';
import { MAX_SCOPES } from './scopes.js';

/** A list of scope names, each documented by the `Scope` schema the catalogue contributes (ScopesOpenApi). */
export const ScopeListProperty = (options: Partial<ApiPropertyOptions> = {}) =>
  ApiProperty({ type: 'array', items: { $ref: '#/components/schemas/Scope' }, maxItems: MAX_SCOPES, ...options } as ApiPropertyOptions);

/** A list a caller sends: 1 to MAX_SCOPES names; the catalogue (`ScopeCatalogue.resolve`) judges each. */
export const ScopeListRules = () => applyDecorators(IsArray(), ArrayNotEmpty(), ArrayMaxSize(MAX_SCOPES), IsString({ each: true }));
