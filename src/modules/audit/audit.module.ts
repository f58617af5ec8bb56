import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditEventsRepository } from './audit-events.repository.js';
import { AuditLog, AuditService } from './audit.service.js';
import { AuditEvent } from './entities/audit-event.entity.js';
import { ModuleParts } from '../../common/index.js';
import { AuditEvents1797897600000 } from './migrations/1797897600000-audit-events.js';

/** The audit log: every change to clients, plans, keys and admin tokens, written in the change's transaction. */
@ModuleParts({ migrations: [AuditEvents1797897600000] })
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent])],
  providers: [AuditEventsRepository, AuditLog, AuditService],
  exports: [AuditLog, AuditService],
})
export class AuditModule {}
