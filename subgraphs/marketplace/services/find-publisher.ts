import type { EntityManager } from '@mikro-orm/postgresql';
import { forbidden, notFound } from '../../../shared/errors.js';
import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { Publisher } from '../entities/publisher.js';
import { SLUG } from './publisher-fields.js';

export const publisherNotFound = () => notFound('Publisher');

/** An active publisher by slug (inactive ones are not found). */
export async function findActivePublisher(em: EntityManager, slug: string): Promise<Publisher> {
  const publisher = SLUG.test(slug) ? await em.findOne(Publisher, { slug, isActive: true }) : null;
  if (!publisher) throw publisherNotFound();
  return publisher;
}

/** A publisher the caller's organization owns: 404 when unknown or deactivated, 403 when someone else's. */
export async function findOwnedPublisher(context: RequestContext, em: EntityManager, slug: string): Promise<Publisher> {
  const identity = requireIdentity(context);
  const publisher = await findActivePublisher(em, slug);
  if (publisher.organizationId !== identity.organizationId) {
    throw forbidden('Only the owning organization can manage this publisher', 'not_publisher_owner');
  }
  return publisher;
}
