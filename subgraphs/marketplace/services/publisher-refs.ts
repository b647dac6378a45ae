import type { EntityManager } from '@mikro-orm/postgresql';
import type { PublisherRef } from '../../../shared/ports.js';
import { isUuid } from '../../../shared/ids.js';
import { Publisher } from '../entities/publisher.js';
import { SLUG } from './publisher-fields.js';

/** The `publishersOwnedBy` port: an organization's active publishers, oldest first. */
export async function publishersOwnedBy(em: EntityManager, organizationId: string): Promise<PublisherRef[]> {
  if (!isUuid(organizationId)) return [];
  const rows = await em.find(Publisher, { organizationId, isActive: true }, { fields: ['id', 'slug'], orderBy: { createdAt: 'asc' } });
  return rows.map(({ id, slug }) => ({ id, slug }));
}

/** The `publisherBySlug` port. */
export async function publisherBySlug(em: EntityManager, slug: string): Promise<PublisherRef | null> {
  if (!SLUG.test(slug)) return null;
  const publisher = await em.findOne(Publisher, { slug }, { fields: ['id', 'slug'] });
  return publisher ? { id: publisher.id, slug: publisher.slug } : null;
}
