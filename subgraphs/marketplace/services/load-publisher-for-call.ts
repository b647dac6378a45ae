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
