import type { Response } from 'express';
import { AppError, INTERNAL_ERROR_CODE } from '../errors.js';
import type { Logger } from '../logger.js';

export interface ErrorBody {
  code: string;
  message: string;
  status: number;
  details?: Record<string, unknown>;
}

/** The one REST error shape: {"error":{"code","message"}}; 429 also says when to come back. */
export function sendError(res: Response, error: ErrorBody): void {
  const retryAfter = error.details?.retryAfterSeconds;
  if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
  res.status(error.status).json({ error: { code: error.code, message: error.message } });
}

/** Any thrown value as an ErrorBody: AppErrors keep theirs, everything else is logged and masked. */
export function errorBodyOf(error: unknown, log: Logger, requestId: string): ErrorBody {
  if (error instanceof AppError) {
    return { status: error.status, code: error.code, message: error.message, details: error.details };
  }
  log.error({ requestId, err: error }, 'internal error');
  return { status: 500, code: INTERNAL_ERROR_CODE, message: `Internal server error (request ${requestId})` };
}
