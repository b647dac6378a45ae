import type { EntityManager } from '@mikro-orm/postgresql';
import type { BilledPublisher } from '../../../shared/ports.js';
import { Publisher } from '../entities/publisher.js';
import { SLUG } from './publisher-fields.js';

/** The `billedPublisher` port: an active publisher as billing needs it (null when unknown or inactive). */
export async function billedPublisher(em: EntityManager, slug: string): Promise<BilledPublisher | null> {
  if (!SLUG.test(slug)) return null;
  const publisher = await em.findOne(Publisher, { slug, isActive: true });
  if (!publisher) return null;
  return {
    publisherId: publisher.id,
    slug: publisher.slug,
    organizationId: publisher.organizationId,
    gatewayFeePercent: publisher.gatewayFeePercent,
    walletAddress: publisher.walletAddress || null,
    walletNetworkId: publisher.walletNetworkId || null,
  };
}
