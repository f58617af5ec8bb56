import type { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';

/** Nest's own logs (start-up, the exception filter, the limiter's transitions) through pino: one stream of JSON lines. */
export class PinoLoggerService implements LoggerService {
  readonly log = this.at('info');
  readonly warn = this.at('warn');
  readonly debug = this.at('debug');
  readonly verbose = this.at('trace');
  readonly fatal = this.at('fatal');

  constructor(private readonly logger: Logger) {}

  error(message: unknown, stackOrContext?: string, context?: string): void {
    // Nest passes (message, stack, context), or (message, context) when there is no stack.
    const [stack, ctx] = context === undefined ? [undefined, stackOrContext] : [stackOrContext, context];
    this.logger.error({ context: ctx, stack }, String(message));
  }

  private at(level: Level) {
    return (message: unknown, context?: string): void => this.logger[level]({ context }, String(message));
  }
}
