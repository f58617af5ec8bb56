const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
// PostgreSQL SQLSTATE classes and codes that mean "cannot talk to the database", not "bad query".
const POSTGRES_UNAVAILABLE = /^(08|57P0[1-3]|53300)/;
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|database system is (starting up|shutting down)/i;

/** True when the error, or one it wraps, says the database cannot be reached (as opposed to a failed query). */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  const { code, message, driverError, cause } = (error ?? {}) as Record<string, unknown>;
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code))) return true;
  if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  const wrapped = driverError ?? cause;
  return depth < 4 && !!wrapped && isDatabaseUnavailable(wrapped, depth + 1);
}
