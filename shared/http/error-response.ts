import type { Response } from 'express';
import { AppError, INTERNAL_ERROR_CODE } from '../errors.js';
import type { Logger } from '../logger.js';
import { databaseUnavailableError } from '../db/database-unavailable.js';

export interface ErrorBody {
  code: string;
  message: string;
  status: number;
  details?: Record<string, unknown>;
}

function setRetryAfter(res: Response, error: ErrorBody): void {
  const retryAfter = error.details?.retryAfterSeconds;
  if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
}

/** The one REST error shape: {"error":{"code","message"}}; 429 and 503 also say when to come back. */
export function sendError(res: Response, error: ErrorBody): void {
  setRetryAfter(res, error);
  res.status(error.status).json({ error: { code: error.code, message: error.message } });
}

/** The same error as a GraphQL answer ({"errors":[…extensions]}), for one raised before GraphQL ran. */
export function sendGraphQLError(res: Response, error: ErrorBody): void {
  setRetryAfter(res, error);
  res.status(error.status).json({ errors: [{ message: error.message, extensions: { code: error.code, status: error.status } }] });
}

/** Any thrown value as an ErrorBody: AppErrors keep theirs, everything else is logged and masked. */
export function errorBodyOf(error: unknown, log: Logger, requestId: string): ErrorBody {
  const known = error instanceof AppError ? error : databaseUnavailableError(error);
  // The caller learns only that it may retry; the operator must still see why.
  if (known && known !== error) log.warn({ requestId, err: error }, 'database unavailable');
  if (known) return { status: known.status, code: known.code, message: known.message, details: known.details };
  log.error({ requestId, err: error }, 'internal error');
  return { status: 500, code: INTERNAL_ERROR_CODE, message: `Internal server error (request ${requestId})` };
}
