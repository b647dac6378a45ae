import DataLoader from 'dataloader';
import { loader, type RequestContext } from '../../shared/context.js';
import { PublisherEndpoint } from './entities/endpoint.js';
import { PublisherPricing } from './entities/pricing.js';
import { Publisher } from './entities/publisher.js';

function groupBy<T>(rows: T[], keys: readonly string[], keyOf: (row: T) => string): T[][] {
  const groups = new Map<string, T[]>(keys.map((key) => [key, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((key) => groups.get(key)!);
}

/** One query for the endpoints of every publisher on a page. */
export const endpointsByPublisher = (context: RequestContext) =>
  loader(context, 'marketplace.endpointsByPublisher', () =>
    new DataLoader<string, PublisherEndpoint[]>(async (ids) =>
      groupBy(
        await context.em.find(PublisherEndpoint, { publisherId: { $in: [...ids] } }, { orderBy: { publisherId: 'asc', position: 'asc' } }),
        ids,
        (row) => row.publisherId,
      ),
    ),
  );

export const pricingByPublisher = (context: RequestContext) =>
  loader(context, 'marketplace.pricingByPublisher', () =>
    new DataLoader<string, PublisherPricing[]>(async (ids) =>
      groupBy(
        await context.em.find(PublisherPricing, { publisherId: { $in: [...ids] } }, { orderBy: { publisherId: 'asc', assetSymbol: 'asc' } }),
        ids,
        (row) => row.publisherId,
      ),
    ),
  );

export const activePublishersByOrganization = (context: RequestContext) =>
  loader(context, 'marketplace.publishersByOrganization', () =>
    new DataLoader<string, Publisher[]>(async (ids) =>
      groupBy(
        await context.em.find(Publisher, { organizationId: { $in: [...ids] }, isActive: true }, { orderBy: { createdAt: 'asc' } }),
        ids,
        (row) => row.organizationId,
      ),
    ),
  );

export const publishersById = (context: RequestContext) =>
  loader(context, 'marketplace.publishersById', () =>
    new DataLoader<string, Publisher | null>(async (ids) => {
      const rows = await context.em.find(Publisher, { id: { $in: [...ids] } });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  );
