import type { ChangeTopic } from '../shared/db/change-notices.js';
import { pageOf } from '../shared/paging.js';
import { badRequest } from '../shared/errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: any;
}

/** One row of the specification: a REST path answered by one GraphQL operation. */
export interface RestRoute {
  method: HttpMethod;
  /** Express path, e.g. `/notifications/:notification_id/read`. */
  path: string;
  /** One GraphQL operation with a single root field; may spread fragments from fragments.ts. */
  document: string;
  /** How path, query and body become the operation's variables (snake_case keys are converted). */
  variables?: (request: RestRequest) => Record<string, unknown>;
  /** Success status (default 200); 204 sends no body. */
  status?: number;
  /** How the root field's value becomes `data` (default: as it is). */
  data?: (value: any) => unknown;
  /**
   * Who may call it (the specification's Auth column). By default a credential is required and
   * checked before the body (401 whatever the body holds); `optional` rows answer anonymous
   * callers too and use a credential when one is given.
   */
  auth?: 'bearer' | 'optional';
  /**
   * A public read whose answer is the same for every caller and changes only with this topic's
   * changes: its answers are cached by URL (PUBLIC_ANSWER_CACHE_SECONDS).
   */
  publicCache?: ChangeTopic;
}

/** The body as an object: REST callers may omit it, but a JSON array or scalar is refused. */
export function bodyObject(request: RestRequest): Record<string, unknown> {
  const body = request.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('invalid_body', 'The request body must be a JSON object');
  return body;
}

function singleQueryValue(request: RestRequest, name: string): string | undefined {
  const value = request.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest('invalid_query_parameter', `Query parameter ${name} must be given once`);
  return value;
}

export function stringQuery(request: RestRequest, name: string): string | undefined {
  return singleQueryValue(request, name);
}

export function intQuery(request: RestRequest, name: string): number | undefined {
  const value = singleQueryValue(request, name);
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d{1,15}$/.test(value)) throw badRequest('invalid_query_parameter', `Query parameter ${name} must be an integer`);
  return Number(value);
}

export function booleanQuery(request: RestRequest, name: string): boolean | undefined {
  const value = singleQueryValue(request, name);
  if (value === undefined || value === '') return undefined;
  if (value !== 'true' && value !== 'false') {
    throw badRequest('invalid_query_parameter', `Query parameter ${name} must be true or false`);
  }
  return value === 'true';
}

/**
 * The usual paging pair, validated the same everywhere: here too, so that a value GraphQL's 32-bit
 * Int could not carry gets the same `invalid_limit` / `invalid_offset` as any other out of range.
 */
export function pageQuery(request: RestRequest): { limit?: number; offset?: number } {
  const page = { limit: intQuery(request, 'limit'), offset: intQuery(request, 'offset') };
  pageOf(page);
  return page;
}
