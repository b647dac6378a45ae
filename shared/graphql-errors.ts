import { GraphQLError, Kind } from 'graphql';
import { AppError, appErrorExtensions, INTERNAL_ERROR_CODE, isAppErrorExtensions } from './errors.js';
import type { Logger } from './logger.js';
import { databaseUnavailableError } from './db/database-unavailable.js';

const FRAMEWORK_CODES: Record<string, { code: string; status: number }> = {
  GRAPHQL_PARSE_FAILED: { code: 'graphql_parse_failed', status: 400 },
  GRAPHQL_VALIDATION_FAILED: { code: 'graphql_validation_failed', status: 400 },
  BAD_USER_INPUT: { code: 'invalid_input', status: 400 },
  BAD_REQUEST: { code: 'invalid_request', status: 400 },
  PERSISTED_QUERY_NOT_FOUND: { code: 'persisted_query_not_found', status: 400 },
  PERSISTED_QUERY_NOT_SUPPORTED: { code: 'persisted_query_not_supported', status: 400 },
  OPERATION_RESOLUTION_FAILURE: { code: 'invalid_operation', status: 400 },
};

/** `at "input.pricing[0].pricePerCall"` at the end of graphql-js's message: the field's path inside the variable. */
const VALUE_PATH = / at "([_A-Za-z][_0-9A-Za-z]*(?:\.[_A-Za-z][_0-9A-Za-z]*|\[\d+\])*)"$/;

/**
 * A variable graphql-js could not coerce (a wrong JSON type, a missing field, a scalar of a
 * subgraph refusing its value), as the path of the field: the variable's name, then its fields.
 * Told apart by shape, as Apollo Server does: no path, one variable-definition node.
 */
export function variablePathOf(error: GraphQLError): (string | number)[] | null {
  const node = error.nodes?.length === 1 ? error.nodes[0] : undefined;
  if (error.path || node?.kind !== Kind.VARIABLE_DEFINITION) return null;
  const name = node.variable.name.value;
  if (!error.message.startsWith(`Variable "$${name}" `)) return null;
  // The message is `<prefix>; <the inner reason>`: the path ends the prefix. Values are quoted as
  // JSON, so none ends in ` at "<path>"`.
  const inner = error.originalError?.message;
  const prefix = inner && error.message.endsWith(`; ${inner}`) ? error.message.slice(0, -inner.length - 2) : error.message;
  const at = VALUE_PATH.exec(prefix)?.[1];
  if (!at) return [name];
  return at.split(/\.|(?=\[)/).map((step) => (step.startsWith('[') ? Number(step.slice(1, -1)) : step));
}

/**
 * One rule for every GraphQL error leaving a subgraph or the gateway: our AppErrors keep code and
 * status, GraphQL's own request errors become 400 with a snake_case code, anything else is logged
 * with the request id and masked.
 */
export function formatPlatformError(error: GraphQLError, log: Logger, requestId?: string): GraphQLError {
  const original = error.originalError;
  const known = original instanceof AppError ? original : databaseUnavailableError(original);
  // The caller learns only that it may retry; the operator must still see why.
  if (known && known !== original) log.warn({ requestId, err: original, path: error.path }, 'database unavailable');
  if (known) return new GraphQLError(known.message, { path: error.path, extensions: appErrorExtensions(known) });
  if (isAppErrorExtensions(error.extensions)) {
    const { code, status, details } = error.extensions as Record<string, unknown>;
    return new GraphQLError(error.message, { path: error.path, extensions: { code, status, ...(details ? { details } : {}) } });
  }
  // A variable that does not fit, caught by a subgraph (its own scalars) as by the gateway: the
  // caller's mistake, answered 400 in every mode, with the field's path for the REST adapter.
  const variablePath = variablePathOf(error);
  if (variablePath) {
    return new GraphQLError(error.message, { extensions: { code: 'invalid_input', status: 400, details: { variablePath } } });
  }
  const frameworkCode = typeof error.extensions?.code === 'string' ? FRAMEWORK_CODES[error.extensions.code] : undefined;
  if (frameworkCode) return new GraphQLError(error.message, { extensions: frameworkCode });
  if (!original && !error.path) {
    // A document or variable error raised by graphql-js itself (parse, validation, coercion).
    return new GraphQLError(error.message, { extensions: { code: 'invalid_input', status: 400 } });
  }
  log.error({ requestId, err: original ?? error, path: error.path }, 'internal error');
  return new GraphQLError('Internal server error', {
    path: error.path,
    extensions: { code: INTERNAL_ERROR_CODE, status: 500, ...(requestId ? { requestId } : {}) },
  });
}
