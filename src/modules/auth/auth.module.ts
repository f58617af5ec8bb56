import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/index.js';
import { PlansModule } from '../plans/index.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiKey } from './entities/api-key.entity.js';
import { IssuedKeysFilter } from './issued-keys.filter.js';
import { RequestAuthenticator } from './request-authenticator.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKey]), PlansModule, AuditModule],
  providers: [ApiKeysRepository, IssuedKeysFilter, ApiKeysService, RequestAuthenticator, ApiKeyGuard],
  exports: [ApiKeysService, RequestAuthenticator, ApiKeyGuard],
})
export class AuthModule {}
