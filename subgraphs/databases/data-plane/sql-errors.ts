import { AppError, badRequest } from '../../../shared/errors.js';

interface PostgresError {
  code?: string;
  message: string;
  position?: string;
  hint?: string;
  detail?: string;
}

const isPostgresError = (error: unknown): error is PostgresError =>
  error instanceof Error && typeof (error as PostgresError).code === 'string' && /^[0-9A-Z]{5}$/.test((error as PostgresError).code!);

/** A write refused by a READ ONLY transaction. */
export const READ_ONLY_SQLSTATE = '25006';

export const readOnlyRefusal = (message = 'The query would write: only reads are allowed here') => badRequest('read_only_query', message);

/**
 * PostgreSQL's own verdict on the user's SQL, as 400 `sql_error` with its SQLSTATE, message,
 * position and hint (a write refused by a read-only transaction: 400 `read_only_query`). Anything
 * else (the data plane unreachable) is not the SQL's fault: 503, never a stack.
 */
export function sqlErrorOf(error: unknown, statementIndex?: number): AppError {
  if (error instanceof AppError) return error;
  if (isPostgresError(error)) {
    if (error.code === READ_ONLY_SQLSTATE) return readOnlyRefusal(`The query would write (${error.message}): only reads are allowed here`);
    const details = {
      sqlstate: error.code,
      message: error.message,
      position: error.position ? Number(error.position) : null,
      hint: error.hint ?? null,
      detail: error.detail ?? null,
      ...(statementIndex === undefined ? {} : { statementIndex }),
    };
    const where = statementIndex === undefined ? '' : ` (statement ${statementIndex + 1})`;
    return badRequest('sql_error', `${error.message}${where} [SQLSTATE ${error.code}${details.position ? `, position ${details.position}` : ''}]`, details);
  }
  return new AppError(503, 'data_plane_unavailable', 'The database server could not be reached; try again shortly');
}

/** SQLSTATE of a connection refused because the database does not allow connections (suspended, or a branch's window). */
export const isConnectionsRefused = (error: unknown) => isPostgresError(error) && error.code === '55000' && /not currently accepting connections/.test(error.message);
