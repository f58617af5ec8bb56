import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/index.js';
import { ClientsRepository } from './clients.repository.js';
import { ClientsService } from './clients.service.js';
import { Client } from './entities/client.entity.js';
import { ModuleParts } from '../../common/index.js';

@ModuleParts({ auditActions: ['client.created', 'client.plan_changed'] })
@Module({
  imports: [TypeOrmModule.forFeature([Client]), AuditModule],
  providers: [ClientsRepository, ClientsService],
  exports: [ClientsService],
})
export class PlansModule {}
