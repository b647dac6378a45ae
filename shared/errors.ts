import { GraphQLError } from 'graphql';

/**
 * The one error family of the platform: a stable snake_case code and an HTTP status.
 * REST renders it as {"error":{"code","message"}}; GraphQL as extensions.code / extensions.status.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, message: string, details?: Record<string, unknown>) =>
  new AppError(400, code, message, details);
export const unauthorized = (message = 'Authentication required', code = 'unauthorized') =>
  new AppError(401, code, message);
export const forbidden = (message = 'Forbidden', code = 'forbidden') => new AppError(403, code, message);
export const notFound = (what: string, code = `${what.toLowerCase().replace(/[^a-z0-9]+/g, '_')}_not_found`) =>
  new AppError(404, code, `${what} not found`);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, 'rate_limited', `Too many requests; retry in ${retryAfterSeconds} s`, { retryAfterSeconds });

export const INTERNAL_ERROR_CODE = 'internal_error';

/** The shape an AppError takes inside GraphQL responses; `status` survives the gateway. */
export function appErrorExtensions(error: AppError): Record<string, unknown> {
  return { code: error.code, status: error.status, ...(error.details ? { details: error.details } : {}) };
}

export function toGraphQLError(error: AppError, path?: readonly (string | number)[]): GraphQLError {
  return new GraphQLError(error.message, { path, extensions: appErrorExtensions(error) });
}

const SNAKE_CODE = /^[a-z][a-z0-9_]*$/;

/** True when GraphQL error extensions carry one of our codes (as opposed to a framework or unknown error). */
export function isAppErrorExtensions(extensions: Record<string, unknown> | undefined): boolean {
  return typeof extensions?.code === 'string' && SNAKE_CODE.test(extensions.code) && typeof extensions.status === 'number';
}
