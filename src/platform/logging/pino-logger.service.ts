import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/**
 * Nest's own logs (start-up, the exception filter, the limiter's transitions) through pino, so
 * everything the service writes is one stream of JSON lines with the same fields.
 */
export class PinoLoggerService implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }

  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }

  error(message: unknown, stackOrContext?: string, context?: string): void {
    // Nest passes (message, stack, context), or (message, context) when there is no stack.
    const [stack, ctx] = context === undefined ? [undefined, stackOrContext] : [stackOrContext, context];
    this.logger.error({ context: ctx, stack }, String(message));
  }

  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }

  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }

  fatal(message: unknown, context?: string): void {
    this.logger.fatal({ context }, String(message));
  }
}
