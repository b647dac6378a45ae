import { badRequest } from './errors.js';

export interface PageInput {
  limit?: number | null;
  offset?: number | null;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
/** GraphQL's Int is 32-bit: the largest offset either interface can carry. */
const MAX_OFFSET = 2 ** 31 - 1;

export function pageOf(input: PageInput): { limit: number; offset: number } {
  const limit = input.limit ?? DEFAULT_PAGE_SIZE;
  const offset = input.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw badRequest('invalid_limit', `limit must be between 1 and ${MAX_PAGE_SIZE}`);
  }
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET) throw badRequest('invalid_offset', `offset must be between 0 and ${MAX_OFFSET}`);
  return { limit, offset };
}
