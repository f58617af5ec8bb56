import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ModuleParts } from '../../../src/common/index.js';
import { AuditModule } from '../../../src/modules/audit/index.js';
import { Kennel } from './entities/kennel.entity.js';
import { kennelsConfig } from './kennels.config.js';
import { KennelsController } from './kennels.controller.js';
import { KennelNotFoundException } from './kennels.exceptions.js';
import { KennelsRepository } from './kennels.repository.js';
import { KennelsService } from './kennels.service.js';
import { Kennels1800000000000 } from './migrations/1800000000000-kennels.js';

/**
 * A fixture module, not shipped: what a team's module brings, all from its own folder, added to the
 * application with one line (test/extending/kennels.e2e-spec.ts).
 */
@ModuleParts({
  config: [kennelsConfig],
  migrations: [Kennels1800000000000],
  scopes: [
    { name: 'kennels:read', description: 'List and read kennels.', byDefault: true },
    { name: 'kennels:write', description: 'Add kennels.' },
  ],
  auditActions: ['kennel.created'],
  errors: [KennelNotFoundException],
})
@Module({
  imports: [TypeOrmModule.forFeature([Kennel]), AuditModule],
  controllers: [KennelsController],
  providers: [KennelsRepository, KennelsService],
})
export class KennelsModule {}
