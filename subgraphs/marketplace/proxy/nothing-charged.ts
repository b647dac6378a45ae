import { AppError } from '../../../shared/errors.js';

/** A call that failed before any charge says so: the caller need not look up its wallet to know. */
export function nothingCharged(error: unknown): unknown {
  if (!(error instanceof AppError) || error.status < 500) return error;
  // AppError takes no options: the cause keeps the original's stack and class.
  return Object.assign(new AppError(error.status, error.code, `${error.message}; nothing was charged`, error.details), { cause: error });
}
