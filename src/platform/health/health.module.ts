import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { HealthController } from './health.controller.js';
import { ShutdownModule } from './shutdown.module.js';

@Module({
  imports: [ShutdownModule, DiscoveryModule],
  controllers: [HealthController],
})
export class HealthModule {}
