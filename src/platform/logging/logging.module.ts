import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/index.js';
import { createHttpLogger } from './http-logger.js';
import { createLogger } from './logger.js';
import { PinoLoggerService } from './pino-logger.service.js';

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
