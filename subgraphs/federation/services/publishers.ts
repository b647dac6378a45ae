import type { EntityManager } from '@mikro-orm/postgresql';
import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { AppError, badRequest, forbidden } from '../../../shared/errors.js';
import type { PublisherRef } from '../../../shared/ports.js';

const directoryUnavailable = () =>
  new AppError(503, 'publisher_directory_unavailable', 'Publishers cannot be looked up from this process; retry later');

/** The active publishers the caller's organization owns (asked of the marketplace through a port). */
export async function publishersOfCaller(context: RequestContext, em: EntityManager): Promise<PublisherRef[]> {
  const { organizationId } = requireIdentity(context);
  const owned = await context.services.ports.publishersOwnedBy?.(em, organizationId);
  if (!owned) throw directoryUnavailable();
  return owned;
}

/**
 * The publisher a write is made for: 403 `not_a_publisher` when the caller's organization owns
 * none, 403 when `slug` names one it does not own, 400 when it owns several and names none.
 */
export async function publisherForWrite(context: RequestContext, em: EntityManager, slug: string | null | undefined): Promise<PublisherRef> {
  const owned = await publishersOfCaller(context, em);
  if (owned.length === 0) throw forbidden('The caller’s organization owns no publisher', 'not_a_publisher');
  if (slug !== undefined && slug !== null) {
    const named = owned.find((publisher) => publisher.slug === slug);
    if (!named) throw forbidden('The caller’s organization does not own this publisher', 'not_publisher_owner');
    return named;
  }
  if (owned.length > 1) {
    throw badRequest('publisher_slug_required', `The organization owns several publishers: name one in publisher_slug (${owned.map((p) => p.slug).join(', ')})`);
  }
  return owned[0]!;
}

/** A publisher's id from its slug for a filter; null when no publisher has it. */
export async function publisherIdOfSlug(context: RequestContext, slug: string): Promise<string | null> {
  const lookup = context.services.ports.publisherBySlug;
  if (!lookup) throw directoryUnavailable();
  return (await lookup(context.em, slug))?.id ?? null;
}
