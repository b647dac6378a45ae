import type { EntityManager } from '@mikro-orm/postgresql';
import type { BilledPublisher, PublisherRef } from '../../../shared/ports.js';
import { isUuid } from '../../../shared/ids.js';
import { SLUG } from './publisher-fields.js';

// Plain rows, not entities: a partly loaded Publisher must not enter the asking request's identity map.

/** The `publishersOwnedBy` port: an organization's active publishers, oldest first. */
export async function publishersOwnedBy(em: EntityManager, organizationId: string): Promise<PublisherRef[]> {
  if (!isUuid(organizationId)) return [];
  return em.execute(`select id, slug from market_publisher where organization_id = ? and is_active order by created_at, id`, [organizationId]);
}

/** The `publisherBySlug` port: a publisher, active or not. */
export async function publisherBySlug(em: EntityManager, slug: string): Promise<PublisherRef | null> {
  if (!SLUG.test(slug)) return null;
  const [row] = await em.execute(`select id, slug from market_publisher where slug = ?`, [slug]);
  return row ? { id: row.id, slug: row.slug } : null;
}

/** The `billedPublisher` port: an active publisher as billing needs it (null when unknown or inactive). */
export async function billedPublisher(em: EntityManager, slug: string): Promise<BilledPublisher | null> {
  if (!SLUG.test(slug)) return null;
  const [row] = await em.execute(
    `select id, slug, organization_id, gateway_fee_percent, wallet_address, wallet_network_id from market_publisher where slug = ? and is_active`,
    [slug],
  );
  if (!row) return null;
  return {
    publisherId: row.id,
    slug: row.slug,
    organizationId: row.organization_id,
    gatewayFeePercent: BigInt(row.gateway_fee_percent),
    walletAddress: row.wallet_address || null,
    walletNetworkId: row.wallet_network_id || null,
  };
}
