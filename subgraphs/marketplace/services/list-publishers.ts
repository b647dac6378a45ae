import type { RequestContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors.js';
import { pageOf } from '../../../shared/paging.js';
import { PUBLISHER_CATEGORIES } from '../entities/constants.js';
import { Publisher } from '../entities/publisher.js';
import type { PublisherListInput } from '../types/inputs.js';
import { isUuid } from '../../../shared/ids.js';
import { limitCatalogueReads } from './catalogue-reads.js';
import { findPublisher, publisherNotFound } from './find-publisher.js';
import { listedPublisherIds, searchPublisherIds } from './search-publishers.js';
import { catalogueRecordsOf } from './catalogue-records.js';
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
  const filters = { category, isVerified: input.isVerified };
  const ids = search ? (await searchPublisherIds(context.em, search, filters, page)).map((row) => row.id) : await listedPublisherIds(context.em, filters, page);
  return catalogueRecordsOf(context.services).inOrder(context, ids);
}

/** GET /publishers/{slug}: one active publisher. */
export const getPublisher = (context: RequestContext, slug: string) => findPublisher(context.em, slug);

/** One publisher by id, active or paused, as by slug (a deleted one, or an id that is no uuid, is not found). */
export async function getPublisherById(context: RequestContext, id: string): Promise<Publisher> {
  const publisher = isUuid(id) ? await context.em.findOne(Publisher, { id, deletedAt: null }) : null;
  if (!publisher) throw publisherNotFound();
  return publisher;
}
