import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/index.js';
import { InsufficientScopeException } from './auth.exceptions.js';

export const REQUIRED_SCOPE = 'auth:requiredScope';

/** The scope a key needs for the operation (one a module declares): ApiKeyGuard checks it, and the OpenAPI document shows it and its 403. */
export const RequiredScope = (scope: string) =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPE, scope),
    // An extension: OpenAPI 3.0, this document's version, allows scopes in a security requirement for OAuth2 only.
    ApiExtension('x-required-scopes', [scope]),
    ApiErrorResponses(InsufficientScopeException),
  );
