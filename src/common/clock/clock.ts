import { Global, Module } from '@nestjs/common';

/** The time source of the service, injected so tests can move it. */
export abstract class Clock {
  abstract now(): Date;
}

@Global()
@Module({ providers: [{ provide: Clock, useValue: { now: () => new Date() } satisfies Clock }], exports: [Clock] })
export class ClockModule {}
