import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientsRepository } from './clients.repository.js';
import { ClientsService } from './clients.service.js';
import { Client } from './entities/client.entity.js';
import { PlansService } from './plans.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Client])],
  providers: [PlansService, ClientsRepository, ClientsService],
  exports: [PlansService, ClientsService],
})
export class PlansModule {}
