import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../../../shared/ids.js';
import type { PublisherPayee } from '../../../shared/ports.js';
import { Publisher } from '../entities/publisher.js';

/** The `publisherPayee` port: where a publisher is paid on-chain. */
export async function publisherPayee(em: EntityManager, publisherId: string): Promise<PublisherPayee | null> {
  if (!isUuid(publisherId)) return null;
  const publisher = await em.findOne(Publisher, { id: publisherId });
  if (!publisher) return null;
  return {
    publisherId: publisher.id,
    slug: publisher.slug,
    walletAddress: publisher.walletAddress || null,
    walletNetworkId: publisher.walletNetworkId || null,
  };
}
