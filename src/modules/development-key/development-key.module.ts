import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/index.js';
import { PlansModule } from '../plans/index.js';
import { DevelopmentKeyService } from './development-key.service.js';

/** The first-start development key; the server's main adds it, the tests and the CLI do not. */
@Module({
  imports: [PlansModule, AuthModule],
  providers: [DevelopmentKeyService],
  exports: [DevelopmentKeyService],
})
export class DevelopmentKeyModule {}
