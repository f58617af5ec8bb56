import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/index.js';
import { AdminTokensRepository } from './admin-tokens.repository.js';
import { AdminTokensService } from './admin-tokens.service.js';
import { AdminToken } from './entities/admin-token.entity.js';

/** The admin tokens alone, without HTTP: what the command-line tool needs to create, list and revoke them. */
@Module({
  imports: [TypeOrmModule.forFeature([AdminToken]), AuditModule],
  providers: [AdminTokensRepository, AdminTokensService],
  exports: [AdminTokensService],
})
export class AdminTokensModule {}
