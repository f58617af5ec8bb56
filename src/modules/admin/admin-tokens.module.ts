import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/index.js';
import { AdminTokensRepository } from './admin-tokens.repository.js';
import { AdminTokensService } from './admin-tokens.service.js';
import { AdminToken } from './entities/admin-token.entity.js';
import { ModuleParts } from '../../common/index.js';
import { adminConfig } from './admin.config.js';
import { AdminTokens1798070400000 } from './migrations/1798070400000-admin-tokens.js';

/** The admin tokens alone, without HTTP: what the command-line tool needs to create, list and revoke them. */
// ADMIN_PORT and ADMIN_HOST are checked with the server's configuration: the server starts the admin API when they say so.
@ModuleParts({
  config: [adminConfig],
  migrations: [AdminTokens1798070400000],
  auditActions: ['admin_token.created', 'admin_token.revoked'],
})
@Module({
  imports: [TypeOrmModule.forFeature([AdminToken]), AuditModule],
  providers: [AdminTokensRepository, AdminTokensService],
  exports: [AdminTokensService],
})
export class AdminTokensModule {}
