import { pino, type DestinationStream, type Logger } from 'pino';
import { traceFields } from '../../common/index.js';
import type { AppConfig } from '../config/index.js';

/** Redacted wherever they appear in a log record: credentials never reach the log. */
const SECRETS = ['req.headers.authorization', 'req.headers.cookie', '*.authorization', '*.apiKey', '*.key'];

/** JSON lines for log shippers in production; elsewhere readable ones, when pino-pretty (a development dependency) is installed. */
export function createLogger(
  { logLevel, production }: Pick<AppConfig, 'logLevel' | 'production'>,
  destination?: DestinationStream,
): Logger {
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
