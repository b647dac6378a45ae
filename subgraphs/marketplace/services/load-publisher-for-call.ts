import type { EntityManager } from '@mikro-orm/postgresql';
import { KeptCopies } from '../../../shared/copies.js';
import { announceChange } from '../../../shared/db/change-notices.js';
import type { PlatformServices } from '../../../shared/services.js';
import { PublisherEndpoint } from '../entities/endpoint.js';
import { PublisherPricing } from '../entities/pricing.js';
import type { Publisher } from '../entities/publisher.js';
import { findActivePublisher } from './find-publisher.js';
import { secretBoxOf } from './secrets.js';

export interface PublisherForCall {
  publisher: Publisher;
  /** null for database publishers (no endpoint list). */
  endpoints: PublisherEndpoint[] | null;
  pricing: PublisherPricing[];
  secrets: {
    upstreamApiKey: string | null;
    tokenExchangeCredentials: Record<string, unknown> | null;
  };
}

/** Everything the paid proxy needs for one call, with the upstream secrets decrypted (never log them). */
export async function loadPublisherForCall(services: PlatformServices, em: EntityManager, slug: string): Promise<PublisherForCall> {
  const publisher = await findActivePublisher(em, slug);
  const [endpoints, pricing] = await Promise.all([
    publisher.hasEndpoints ? em.find(PublisherEndpoint, { publisherId: publisher.id }, { orderBy: { position: 'asc' } }) : null,
    em.find(PublisherPricing, { publisherId: publisher.id }),
  ]);
  const box = secretBoxOf(services);
  return {
    publisher,
    endpoints,
    pricing,
    secrets: {
      upstreamApiKey: publisher.upstreamApiKeySealed ? box.decrypt(publisher.upstreamApiKeySealed) : null,
      tokenExchangeCredentials: publisher.tokenExchangeCredentialsSealed
        ? JSON.parse(box.decrypt(publisher.tokenExchangeCredentialsSealed))
        : null,
    },
  };
}

const copiesByServices = new WeakMap<PlatformServices, KeptCopies<PublisherForCall>>();
const MAX_CACHED_PUBLISHERS = 5_000;

function copiesOf(services: PlatformServices): KeptCopies<PublisherForCall> {
  let copies = copiesByServices.get(services);
  if (!copies) copiesByServices.set(services, (copies = new KeptCopies(services.config.proxy.publisherCacheSeconds * 1000, MAX_CACHED_PUBLISHERS)));
  return copies;
}

/**
 * The paid path's view of a publisher, kept for PROXY_PUBLISHER_CACHE_SECONDS (reading and
 * decrypting it costs more than the rest of a call). A change made through this process is seen
 * at once; one made by another process (a replica, or the marketplace subgraph in split mode) as
 * soon as its notice arrives, and within that many seconds at worst (a lost notice); 0 turns the
 * cache off.
 */
export async function publisherForCall(services: PlatformServices, em: EntityManager, slug: string): Promise<PublisherForCall> {
  const copies = copiesOf(services);
  const cached = copies.get(slug);
  if (cached) return cached;
  const generation = copies.generation;
  const value = await loadPublisherForCall(services, em, slug);
  copies.set(slug, value, generation);
  return value;
}

export function forgetPublisherForCall(services: PlatformServices, ...slugs: string[]): void {
  copiesOf(services).forget(...slugs);
}

/**
 * After a publisher was created or changed (and its transaction committed): this process's copies
 * (call views, cached catalogue pages) are forgotten at once, the others' when the notice arrives.
 */
export async function announcePublisherChange(services: PlatformServices, em: EntityManager, ...slugs: string[]): Promise<void> {
  forgetPublisherForCall(services, ...slugs);
  services.changes.changedHere('publisher', slugs);
  await announceChange(em, 'publisher', slugs, services.log);
}

/** Keeps this process's publisher views in step with changes other processes announce. */
export function followPublisherChanges(services: PlatformServices): void {
  services.changes.on('publisher', (slug) => forgetPublisherForCall(services, slug));
  services.changes.onResync(() => copiesOf(services).forgetAll());
}
