import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/index.js';
import { RateLimitModule } from '../../policies/rate-limit/index.js';
import { KeysController } from './keys.controller.js';
import { KeysOpenApi } from './keys.openapi.js';
import { KeysService } from './keys.service.js';
import { RateLimitStatusController } from './rate-limit-status.controller.js';
import { ModuleParts } from '../../common/index.js';
import { KeyLimitReachedException, KeyNotFoundException } from './keys.exceptions.js';

/** What a key's holder reads and manages about its own client: its quota and its keys. */
@ModuleParts({
  scopes: [{ name: 'keys:manage', description: "List, create, roll and revoke the client's own keys (`/v1/keys`)." }],
  errors: [KeyNotFoundException, KeyLimitReachedException],
})
@Module({
  imports: [RateLimitModule, AuthModule],
  controllers: [RateLimitStatusController, KeysController],
  providers: [KeysService, KeysOpenApi],
})
export class KeysModule {}
