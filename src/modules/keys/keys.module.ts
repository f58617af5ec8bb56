import { Module } from '@nestjs/common';
import { RateLimitModule } from '../../policies/rate-limit/index.js';
import { KeysOpenApi } from './keys.openapi.js';
import { RateLimitStatusController } from './rate-limit-status.controller.js';

/** What a key's holder reads and manages about its own client: for now, its quota. */
@Module({
  imports: [RateLimitModule],
  controllers: [RateLimitStatusController],
  providers: [KeysOpenApi],
})
export class KeysModule {}
