export { createLogger } from './logger.js';
export { HTTP_LOGGER, LoggingModule, PINO_LOGGER } from './logging.module.js';
export { PinoLoggerService } from './pino-logger.service.js';
