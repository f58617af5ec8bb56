export { HTTP_LOGGER, LoggingModule } from './logging.module.js';
export { PinoLoggerService } from './pino-logger.service.js';
