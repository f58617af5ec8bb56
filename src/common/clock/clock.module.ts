import { Global, Module } from '@nestjs/common';
import { Clock } from './clock.js';

@Global()
@Module({
  providers: [{ provide: Clock, useValue: { now: () => new Date() } satisfies Clock }],
  exports: [Clock],
})
export class ClockModule {}
