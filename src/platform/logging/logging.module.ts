import { Global, Module, type LoggerService } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import { traceFields } from '../../common/index.js';
import type { AppConfig } from '../config/index.js';
import { createHttpLogger } from './http-logger.js';

/** Redacted wherever they appear in a log record: credentials never reach the log. */
const SECRETS = ['req.headers.authorization', 'req.headers.cookie', '*.authorization', '*.apiKey', '*.key'];

/** JSON lines for log shippers in production; elsewhere readable ones, when pino-pretty (a development dependency) is installed. */
export function createLogger({ logLevel, production }: Pick<AppConfig, 'logLevel' | 'production'>, destination?: DestinationStream) {
  const pretty = !production && prettyAvailable();
  return pino(
    {
      level: logLevel,
      redact: { paths: SECRETS, censor: '[redacted]' },
      base: { service: 'pet-adoption-service' },
      // Joins each line to its trace while tracing is on.
      mixin: traceFields,
      timestamp: pino.stdTimeFunctions.isoTime,
      ...(pretty && { transport: { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } } }),
    },
    destination,
  );
}

function prettyAvailable(): boolean {
  try {
    import.meta.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

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

export const PINO_LOGGER = Symbol('PINO_LOGGER');
export const HTTP_LOGGER = Symbol('HTTP_LOGGER');

@Global()
@Module({
  providers: [
    {
      provide: PINO_LOGGER,
      inject: [ConfigService],
      useFactory: (config: ConfigService) => createLogger(config.getOrThrow<AppConfig>('app')),
    },
    { provide: PinoLoggerService, inject: [PINO_LOGGER], useFactory: (logger: Logger) => new PinoLoggerService(logger) },
    { provide: HTTP_LOGGER, inject: [PINO_LOGGER], useFactory: createHttpLogger },
  ],
  exports: [PINO_LOGGER, PinoLoggerService, HTTP_LOGGER],
})
export class LoggingModule {}
