import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/index.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiKey } from './entities/api-key.entity.js';
import { IssuedKeysFilter } from './issued-keys.filter.js';
import { RequestAuthenticator } from './request-authenticator.js';
import { ScopeCatalogue } from './scopes.js';
import { ModuleParts } from '../../common/index.js';
import { authConfig } from './auth.config.js';
import { InsufficientScopeException, InvalidApiKeyException, MissingApiKeyException } from './auth.exceptions.js';
import { ApiKeyScopes1796688000000 } from './migrations/1796688000000-api-key-scopes.js';
import { ApiKeyNames1797292800000 } from './migrations/1797292800000-api-key-names.js';
import { ApiKeyCreationIndex1798156800000 } from './migrations/1798156800000-api-key-creation-index.js';

@ModuleParts({
  config: [authConfig],
  migrations: [ApiKeyScopes1796688000000, ApiKeyNames1797292800000, ApiKeyCreationIndex1798156800000],
  auditActions: ['key.created', 'key.rolled', 'key.revoked'],
  errors: [MissingApiKeyException, InvalidApiKeyException, InsufficientScopeException],
})
@Module({
  imports: [TypeOrmModule.forFeature([ApiKey]), DiscoveryModule, AuditModule],
  providers: [ApiKeysRepository, IssuedKeysFilter, ScopeCatalogue, ApiKeysService, RequestAuthenticator, ApiKeyGuard],
  exports: [ApiKeysService, ScopeCatalogue, RequestAuthenticator, ApiKeyGuard],
})
export class AuthModule {}
