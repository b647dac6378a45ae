import type { RequestContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors.js';
import { pageOf } from '../../../shared/paging.js';
import { PUBLISHER_CATEGORIES } from '../entities/constants.js';
import { Publisher } from '../entities/publisher.js';
import type { PublisherListInput } from '../types/inputs.js';
import { isUuid } from '../../../shared/ids.js';
import { findPlain } from '../../../shared/db/plain-rows.js';
import { limitCatalogueReads } from './catalogue-reads.js';
import { findPublisher, publisherNotFound } from './find-publisher.js';
import { publishersInOrder, searchPublisherIds } from './search-publishers.js';
import { oneOf } from './validate.js';

export const MAX_SEARCH_LENGTH = 200;

export function searchText(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  if (text.length > MAX_SEARCH_LENGTH) throw badRequest('invalid_search', `search is at most ${MAX_SEARCH_LENGTH} characters`);
  return text === '' ? null : text;
}

/** GET /publishers: active publishers, filtered, searched and ranked by relevance when a search is given (plain rows: for the answer only). */
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
  return findPlain(context.em, Publisher, where, {
    orderBy: { isVerified: 'desc', totalQueries: 'desc', name: 'asc', id: 'asc' },
    limit: page.limit,
    offset: page.offset,
  });
}

/** GET /publishers/{slug}: one active publisher. */
export const getPublisher = (context: RequestContext, slug: string) => findPublisher(context.em, slug);

/** One publisher by id, active or paused, as by slug (a deleted one, or an id that is no uuid, is not found). */
export async function getPublisherById(context: RequestContext, id: string): Promise<Publisher> {
  const publisher = isUuid(id) ? await context.em.findOne(Publisher, { id, deletedAt: null }) : null;
  if (!publisher) throw publisherNotFound();
  return publisher;
}
