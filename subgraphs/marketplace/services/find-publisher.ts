import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { forbidden, notFound } from '../../../shared/errors.js';
import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { Publisher } from '../entities/publisher.js';
import { SLUG } from './publisher-fields.js';

export const publisherNotFound = () => notFound('Publisher');

/** A publisher by slug, active or paused (a deleted one is not found); `forUpdate` locks its row until the transaction ends. */
export async function findPublisher(em: EntityManager, slug: string, forUpdate = false): Promise<Publisher> {
  const lock = forUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {};
  const publisher = SLUG.test(slug) ? await em.findOne(Publisher, { slug, deletedAt: null }, lock) : null;
  if (!publisher) throw publisherNotFound();
  return publisher;
}

/** A publisher that takes calls: one its owner paused answers 403 publisher_inactive. */
export async function findActivePublisher(em: EntityManager, slug: string): Promise<Publisher> {
  const publisher = await findPublisher(em, slug);
  if (!publisher.isActive) throw forbidden('This publisher is paused by its owner and takes no calls', 'publisher_inactive');
  return publisher;
}

/**
 * A publisher the caller's organization owns (paused or not), to change inside `em`'s transaction: 404 when unknown
 * or deleted, 403 when someone else's. Its row stays locked until the transaction ends, so
 * concurrent changes (each replacing endpoints and pricing) apply one after the other.
 */
export async function findOwnedPublisher(context: RequestContext, em: EntityManager, slug: string): Promise<Publisher> {
  const identity = requireIdentity(context);
  const publisher = await findPublisher(em, slug, true);
  if (publisher.organizationId !== identity.organizationId) {
    throw forbidden('Only the owning organization can manage this publisher', 'not_publisher_owner');
  }
  await requirePublisherManager(context, em, publisher.organizationId);
  return publisher;
}

/**
 * Managing a publisher (its payee address, its prices) is for the organization's owners and
 * admins, not every member; accounts answers the role wherever it runs (a platform without it
 * does not start, so the check is never skipped).
 */
export async function requirePublisherManager(context: RequestContext, em: EntityManager, organizationId: string): Promise<void> {
  const roleOf = context.services.ports.organizationRole;
  const role = roleOf ? await roleOf(em, requireIdentity(context).userId, organizationId) : null;
  if (role !== 'owner' && role !== 'admin') {
    throw forbidden('Only the organization’s owners and admins manage its publishers', 'organization_admin_required');
  }
}
