const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
// PostgreSQL SQLSTATE classes and codes that mean "cannot talk to the database", not "bad query".
const POSTGRES_UNAVAILABLE = /^(08|57P0[1-3]|53300)/;
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|database system is (starting up|shutting down)/i;

/** True when the error says the database cannot be reached (as opposed to a failed query). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let current = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown } | undefined, depth = 0;
    current && depth < 5;
    depth++
  ) {
    if (typeof current.code === 'string' && (CONNECTION_ERROR_CODES.has(current.code) || POSTGRES_UNAVAILABLE.test(current.code)))
      return true;
    if (typeof current.message === 'string' && CONNECTION_MESSAGES.test(current.message)) return true;
    current = (current.driverError ?? current.cause) as typeof current;
  }
  return false;
}
