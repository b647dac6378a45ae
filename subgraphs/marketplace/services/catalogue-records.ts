import type { RequestContext } from '../../../shared/context.js';
import { KeptCopies } from '../../../shared/copies.js';
import { findPlain } from '../../../shared/db/plain-rows.js';
import type { PlatformServices } from '../../../shared/services.js';
import { PublisherEndpoint } from '../entities/endpoint.js';
import { PublisherPricing } from '../entities/pricing.js';
import { Publisher } from '../entities/publisher.js';
import { endpointsByPublisher, pricingByPublisher } from '../loaders.js';

/** Records kept at most; past it the oldest are dropped (a full catalogue page is 50). */
const MAX_RECORDS = 5000;

interface CatalogueRecord {
  publisher: Publisher;
  endpoints: PublisherEndpoint[];
  pricing: PublisherPricing[];
}

/**
 * The catalogue's records as its listings show them (a publisher with its endpoints and pricing),
 * kept by this process for PUBLIC_ANSWER_CACHE_SECONDS: a listing or a search then reads from the
 * database only the ids of its page, whatever its URL, where the cached pages hold one URL each.
 * A publisher's creation or change forgets them all, at once in the process that made it and
 * through the change notice in the others, as it forgets the cached pages; the time bounds a lost
 * notice and the staleness of the usage counters. A publisher's own page (by slug or id) is
 * always read fresh.
 */
class CatalogueRecords {
  private readonly records: KeptCopies<CatalogueRecord>;

  constructor(ttlMs: number) {
    this.records = new KeptCopies(ttlMs, MAX_RECORDS);
  }

  forgetAll(): void {
    this.records.forgetAll();
  }

  /** The records of these ids in this order (an id with no record left out), with the request's loaders primed. */
  async inOrder(context: RequestContext, ids: readonly string[]): Promise<Publisher[]> {
    const found = new Map<string, CatalogueRecord>();
    for (const id of ids) {
      const record = this.records.get(id);
      if (record) found.set(id, record);
    }
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) for (const record of await this.read(context, missing)) found.set(record.publisher.id, record);
    const publishers: Publisher[] = [];
    for (const id of ids) {
      const record = found.get(id);
      if (!record) continue;
      endpointsByPublisher(context).prime(id, record.endpoints);
      pricingByPublisher(context).prime(id, record.pricing);
      publishers.push(record.publisher);
    }
    return publishers;
  }

  private async read(context: RequestContext, ids: string[]): Promise<CatalogueRecord[]> {
    const generation = this.records.generation;
    const em = context.em;
    const [publishers, endpoints, pricing] = await Promise.all([
      findPlain(em, Publisher, { id: { $in: ids } }),
      findPlain(em, PublisherEndpoint, { publisherId: { $in: ids } }, { orderBy: { publisherId: 'asc', position: 'asc' } }),
      findPlain(em, PublisherPricing, { publisherId: { $in: ids } }, { orderBy: { publisherId: 'asc', assetSymbol: 'asc' } }),
    ]);
    const records = new Map<string, CatalogueRecord>(publishers.map((publisher) => [publisher.id, { publisher, endpoints: [], pricing: [] }]));
    for (const endpoint of endpoints) records.get(endpoint.publisherId)?.endpoints.push(endpoint);
    for (const price of pricing) records.get(price.publisherId)?.pricing.push(price);
    for (const [id, record] of records) this.records.set(id, record, generation);
    return [...records.values()];
  }
}

const byServices = new WeakMap<PlatformServices, CatalogueRecords>();

/** This process's catalogue records, following the publisher change notices from their first use. */
export function catalogueRecordsOf(services: PlatformServices): CatalogueRecords {
  let records = byServices.get(services);
  if (!records) {
    const created = new CatalogueRecords(services.config.publicAnswerCacheSeconds * 1000);
    services.changes.on('publisher', () => created.forgetAll());
    services.changes.onResync(() => created.forgetAll());
    byServices.set(services, created);
    records = created;
  }
  return records;
}
