import type { EntityManager } from '@mikro-orm/postgresql';
import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { notFound } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { OAUTH_SLUG } from '../../../shared/oauth-config.js';
import { OAuthProvider } from '../entities/provider.js';

export const providerNotFound = () => notFound('OAuth provider', 'oauth_provider_not_found');

/** The caller's organizations (all of them when accounts runs here; the current one otherwise). */
export async function callerOrganizationIds(context: RequestContext): Promise<string[]> {
  const identity = requireIdentity(context);
  const ids = (await context.services.ports.organizationIdsOf?.(context.em, identity.userId)) ?? [identity.organizationId];
  return ids.includes(identity.organizationId) ? ids : [identity.organizationId, ...ids];
}

/** Active providers the caller may connect to: the global ones and those of its organizations. */
export async function providersVisibleTo(context: RequestContext): Promise<OAuthProvider[]> {
  const organizationIds = await callerOrganizationIds(context);
  return context.em.find(
    OAuthProvider,
    { isActive: true, $or: [{ organizationId: null }, { organizationId: { $in: organizationIds } }] },
    { orderBy: { name: 'asc', createdAt: 'asc' } },
  );
}

/**
 * One provider the caller may connect to, by id or by slug (a global provider's slug first, then
 * its organizations' in the order it joined them). Unknown, inactive or another organization's: 404.
 */
export async function findVisibleProvider(context: RequestContext, reference: { id?: string; slug?: string }): Promise<OAuthProvider> {
  const { id, slug } = reference;
  if ((id !== undefined && !isUuid(id)) || (slug !== undefined && !OAUTH_SLUG.test(slug))) throw providerNotFound();
  const organizationIds = await callerOrganizationIds(context);
  const candidates = await context.em.find(OAuthProvider, {
    ...(id !== undefined ? { id } : { slug }),
    isActive: true,
    $or: [{ organizationId: null }, { organizationId: { $in: organizationIds } }],
  });
  const rank = (p: OAuthProvider) => (p.organizationId === null ? -1 : organizationIds.indexOf(p.organizationId));
  const found = candidates.sort((a, b) => rank(a) - rank(b))[0];
  if (!found) throw providerNotFound();
  return found;
}

export async function findProviderById(em: EntityManager, id: string): Promise<OAuthProvider | null> {
  return isUuid(id) ? em.findOne(OAuthProvider, { id }) : null;
}
