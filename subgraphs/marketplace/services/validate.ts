import { badRequest } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';

/** Small checks shared by the publisher, endpoint and pricing validators; each names the REST field. */
export function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string, code = `invalid_${field}`): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw badRequest(code, `${field} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

export function httpUrl(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest('invalid_url', `${field} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('invalid_url', `${field} must be an absolute http(s) URL`);
  return value;
}

export const optionalHttpUrl = (value: string | null, field: string) => (value === null ? null : httpUrl(value, field));

export function uuidOrNull(value: string | null, field: string): string | null {
  if (value !== null && !isUuid(value)) throw badRequest('invalid_uuid', `${field} must be a uuid`);
  return value;
}

export function nonNegativeInt(value: number | null, field: string): number | null {
  if (value !== null && (!Number.isInteger(value) || value < 0)) throw badRequest('invalid_integer', `${field} must be 0 or more`);
  return value;
}

export function intBetween(value: number | null, field: string, min: number, max: number): number | null {
  if (value !== null && (!Number.isInteger(value) || value < min || value > max)) {
    throw badRequest('invalid_integer', `${field} must be an integer from ${min} to ${max}`);
  }
  return value;
}

export const MAX_LIST_ITEMS = 100;

export function textList(value: string[], field: string): string[] {
  const cleaned = value.map((item) => item.trim());
  if (cleaned.length > MAX_LIST_ITEMS || cleaned.some((item) => item === '' || item.length > 200)) {
    throw badRequest('invalid_list', `${field} holds at most ${MAX_LIST_ITEMS} non-empty strings of at most 200 characters`);
  }
  return cleaned;
}

/** Free text kept as written (descriptions), bounded: the search index over it has a size limit too. */
export function boundedText(value: string | null | undefined, field: string, max: number): string {
  const text = value ?? '';
  if (text.length > max) throw badRequest(`invalid_${field}`, `${field} is at most ${max} characters`);
  return text;
}

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** Visible characters, spaces and tabs: no CR, LF or other control character that would split or break a request. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export function headerName(value: unknown, field: string): string {
  if (typeof value !== 'string' || !HEADER_NAME.test(value)) {
    throw badRequest('invalid_header_name', `${field}: ${JSON.stringify(value)?.slice(0, 100)} is not a valid header name`);
  }
  return value;
}

export function headerValue(value: unknown, field: string): string {
  if ((typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') || !HEADER_VALUE.test(String(value))) {
    throw badRequest('invalid_header_value', `${field} values must be strings without control characters`);
  }
  return String(value);
}

export function requiredText(value: string | null | undefined, field: string, max = 10_000): string {
  const text = value?.trim() ?? '';
  if (text === '') throw badRequest(`missing_${field}`, `${field} is required`);
  if (text.length > max) throw badRequest(`invalid_${field}`, `${field} is at most ${max} characters`);
  return text;
}

/** Input fields that were given (an update changes only these; null is a value). */
export const given = <T extends object>(input: T, key: keyof T) => input[key] !== undefined;
