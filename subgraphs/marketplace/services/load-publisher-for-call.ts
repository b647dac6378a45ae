import type { EntityManager } from '@mikro-orm/postgresql';
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

interface CachedPublisher {
  value: PublisherForCall;
  expiresAt: number;
}

const cachesByServices = new WeakMap<PlatformServices, Map<string, CachedPublisher>>();
const MAX_CACHED_PUBLISHERS = 5_000;

function cacheOf(services: PlatformServices): Map<string, CachedPublisher> {
  let cache = cachesByServices.get(services);
  if (!cache) cachesByServices.set(services, (cache = new Map()));
  return cache;
}

/**
 * The paid path's view of a publisher, kept for PROXY_PUBLISHER_CACHE_SECONDS (reading and
 * decrypting it costs more than the rest of a call). A change is seen at once by the process that
 * made it, and by other replicas within that many seconds; 0 turns the cache off.
 */
export async function publisherForCall(services: PlatformServices, em: EntityManager, slug: string): Promise<PublisherForCall> {
  const ttlMs = services.config.proxy.publisherCacheSeconds * 1000;
  if (ttlMs === 0) return loadPublisherForCall(services, em, slug);
  const cache = cacheOf(services);
  const cached = cache.get(slug);
  if (cached && cached.expiresAt > Date.now()) return cached.value;
  const value = await loadPublisherForCall(services, em, slug);
  if (cache.size >= MAX_CACHED_PUBLISHERS) cache.clear();
  cache.set(slug, { value, expiresAt: Date.now() + ttlMs });
  return value;
}

export function forgetPublisherForCall(services: PlatformServices, ...slugs: string[]): void {
  const cache = cacheOf(services);
  for (const slug of slugs) cache.delete(slug);
}
