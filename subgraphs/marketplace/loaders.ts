import DataLoader from 'dataloader';
import type { EntityClass, FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import { loader, type RequestContext } from '../../shared/context.js';
import { findPlain } from '../../shared/db/plain-rows.js';
import { PublisherEndpoint } from './entities/endpoint.js';
import { PublisherPricing } from './entities/pricing.js';
import { Publisher } from './entities/publisher.js';

/**
 * These loaders only feed answers, so they read plain rows (shared/db/plain-rows.ts): a page of
 * publishers with their endpoints and pricing spent more on the unit of work than on anything else.
 */

/** One query for the rows of every key asked for in this request, grouped by `key` (e.g. publisherId). */
function groupedLoader<T extends object, K extends keyof T & string>(
  context: RequestContext,
  name: string,
  entity: EntityClass<T>,
  key: K,
  options: { where?: FilterQuery<T>; orderBy: QueryOrderMap<T> },
) {
  return loader(context, `marketplace.${name}`, () =>
    new DataLoader<string, T[]>(async (ids) => {
      const where = { ...(options.where as object), [key]: { $in: [...ids] } } as FilterQuery<T>;
      const rows = await findPlain(context.em, entity, where, { orderBy: options.orderBy });
      const groups = new Map<string, T[]>(ids.map((id) => [id, []]));
      for (const row of rows) groups.get(String(row[key]))?.push(row);
      return ids.map((id) => groups.get(id)!);
    }),
  );
}

export const endpointsByPublisher = (context: RequestContext) =>
  groupedLoader(context, 'endpointsByPublisher', PublisherEndpoint, 'publisherId', { orderBy: { publisherId: 'asc', position: 'asc' } });

export const pricingByPublisher = (context: RequestContext) =>
  groupedLoader(context, 'pricingByPublisher', PublisherPricing, 'publisherId', { orderBy: { publisherId: 'asc', assetSymbol: 'asc' } });

export const activePublishersByOrganization = (context: RequestContext) =>
  groupedLoader(context, 'publishersByOrganization', Publisher, 'organizationId', { where: { deletedAt: null }, orderBy: { createdAt: 'asc' } });

export const publishersById = (context: RequestContext) =>
  loader(context, 'marketplace.publishersById', () =>
    new DataLoader<string, Publisher | null>(async (ids) => {
      const rows = await findPlain(context.em, Publisher, { id: { $in: [...ids] } });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  );
