import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { KennelsController } from './kennels.controller.js';
import { KennelsHealthIndicator } from './kennels.health.js';

/**
 * A fixture module, not shipped: everything a team adds with a new module (a route, an error
 * code, a configuration variable, a readiness indicator), from its own folder only.
 */
@Module({
  imports: [TerminusModule],
  controllers: [KennelsController],
  providers: [KennelsHealthIndicator],
})
export class KennelsModule {}
