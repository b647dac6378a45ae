import type { RequestContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors.js';
import { pageOf } from '../../../shared/paging.js';
import { PUBLISHER_CATEGORIES } from '../entities/constants.js';
import { Publisher } from '../entities/publisher.js';
import type { PublisherListInput } from '../types/inputs.js';
import { limitCatalogueReads } from './catalogue-reads.js';
import { findPublisher } from './find-publisher.js';
import { publishersInOrder, searchPublisherIds } from './search-publishers.js';
import { oneOf } from './validate.js';

export const MAX_SEARCH_LENGTH = 200;

export function searchText(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  if (text.length > MAX_SEARCH_LENGTH) throw badRequest('invalid_search', `search is at most ${MAX_SEARCH_LENGTH} characters`);
  return text === '' ? null : text;
}

/** GET /publishers: active publishers, filtered, searched and ranked by relevance when a search is given. */
export async function listPublishers(context: RequestContext, input: PublisherListInput): Promise<Publisher[]> {
  const page = pageOf(input);
  await limitCatalogueReads(context);
  const category = input.category ? oneOf(input.category, PUBLISHER_CATEGORIES, 'category', 'invalid_category') : null;
  const search = searchText(input.search);
  if (search) {
    return publishersInOrder(context.em, await searchPublisherIds(context.em, search, { category, isVerified: input.isVerified }, page));
  }
  const where: Record<string, unknown> = { isActive: true };
  if (category) where.publisherCategory = category;
  if (input.isVerified !== undefined && input.isVerified !== null) where.isVerified = input.isVerified;
  return context.em.find(Publisher, where, {
    orderBy: { isVerified: 'desc', totalQueries: 'desc', name: 'asc', id: 'asc' },
    limit: page.limit,
    offset: page.offset,
  });
}

/** GET /publishers/{slug}: one active publisher. */
export const getPublisher = (context: RequestContext, slug: string) => findPublisher(context.em, slug);
