import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { stopTracing } from './start-tracing.js';
import { ModuleParts } from '../../common/index.js';
import { tracingConfig } from './tracing.config.js';

/** Nest calls this once its servers have closed, so the spans of the last requests are exported too. */
@Injectable()
class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }
}

/** The SDK itself starts in main.ts, before the application loads (`startTracing`). */
@ModuleParts({ config: [tracingConfig] })
@Module({ providers: [TracingShutdown] })
export class TracingModule {}
