import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { AppError, forbidden, notFound, unauthorized } from '../../../shared/errors.js';
import type { BilledPublisher } from '../../../shared/ports.js';

export const publisherNotFound = () => notFound('Publisher');

/** An active publisher by slug (404 otherwise), through the marketplace's port. */
export async function findBilledPublisher(context: RequestContext, slug: string): Promise<BilledPublisher> {
  const find = context.services.ports.billedPublisher;
  if (!find) throw new AppError(503, 'marketplace_unavailable', 'Publishers cannot be looked up from this process');
  const publisher = await find(context.em as EntityManager, slug);
  if (!publisher) throw publisherNotFound();
  return publisher;
}

async function roleIn(context: RequestContext, organizationId: string): Promise<string | null> {
  const identity = context.identity!;
  const roleOf = context.services.ports.organizationRole;
  // Where accounts runs in another process the role cannot be asked: the acting organization's members are its owners then.
  if (!roleOf) return identity.organizationId === organizationId ? 'owner' : null;
  return roleOf(context.em, identity.userId, organizationId);
}

/**
 * A publisher whose billing the caller manages: its organization's owners and admins (`owner`:
 * owners only), or the operator where `operator` allows it. 404 for an unknown publisher, 401
 * without a credential, 403 for anyone else.
 */
export async function managedPublisher(
  context: RequestContext,
  slug: string,
  rule: { roles: ('owner' | 'admin')[]; operator: boolean },
): Promise<BilledPublisher> {
  if (!context.identity && !context.operator) throw unauthorized();
  const publisher = await findBilledPublisher(context, slug);
  if (context.operator) {
    if (rule.operator) return publisher;
    throw forbidden('This is the publisher’s own operation', 'publisher_manager_required');
  }
  const role = await roleIn(context, publisher.organizationId);
  if (!role || !(rule.roles as string[]).includes(role)) {
    throw forbidden(`Only the publisher’s ${rule.roles.join(' and ')}s can do this`, 'publisher_manager_required');
  }
  return publisher;
}

export const MANAGERS = { roles: ['owner', 'admin'] as ('owner' | 'admin')[], operator: false };
export const OWNERS_OR_OPERATOR = { roles: ['owner'] as ('owner' | 'admin')[], operator: true };
export const MANAGERS_OR_OPERATOR = { roles: ['owner', 'admin'] as ('owner' | 'admin')[], operator: true };

/** Serialises what spends a publisher's earnings (payouts, slashes), inside the caller's transaction. */
export async function lockPublisherEarnings(tx: EntityManager, publisherId: string): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`billing-publisher-earnings:${publisherId}`]);
}
