export { createLogger, HTTP_LOGGER, LoggingModule, PINO_LOGGER, PinoLoggerService } from './logging.module.js';
