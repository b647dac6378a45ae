import { AppError } from '../errors.js';

/** pg-pool's wording when no connection was handed out in time, and pg's when the server went away. */
const UNAVAILABLE_MESSAGE = /timeout exceeded when trying to connect|Connection terminated/;
/** admin_shutdown, cannot_connect_now, too_many_connections; ECONNREFUSED: nothing listens. */
const UNAVAILABLE_CODES = new Set(['57P01', '57P03', '53300', 'ECONNREFUSED']);
const MAX_CAUSES = 5;

/**
 * A database that hands out no connection in time (every pooled one busy, or the server gone) is
 * a 503 the caller may retry, not an internal error. Undefined for any other failure.
 */
export function databaseUnavailableError(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSES && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (UNAVAILABLE_MESSAGE.test(current.message) || (typeof code === 'string' && UNAVAILABLE_CODES.has(code))) {
      return new AppError(503, 'database_unavailable', 'The database is busy or does not answer; retry shortly', {
        retryAfterSeconds: 1,
      });
    }
    current = current.cause;
  }
  return undefined;
}
