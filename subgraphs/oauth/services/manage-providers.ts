import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { parseOAuthProvider, type ConfiguredOAuthProvider } from '../../../shared/oauth-config.js';
import { secretBoxOf } from '../../../shared/secret-box.js';
import { OAuthConnection } from '../entities/connection.js';
import { OAuthProvider } from '../entities/provider.js';
import type { OAuthProviderInput, OAuthProviderUpdateInput } from '../types/inputs.js';
import type { OAuthProviderView } from '../types/results.js';
import { providerNotFound } from './find-provider.js';
import { providerView } from './views.js';

/**
 * Organization providers are managed by the organization's owners and admins: a non-member gets
 * 404 (membership is not revealed), a member 403. Where accounts runs in another process (split
 * mode) the role cannot be asked, and only the caller's current organization is accepted.
 */
async function requireProviderManager(context: RequestContext, organizationId: string, unknown: () => Error): Promise<void> {
  const identity = requireIdentity(context);
  const roleOf = context.services.ports.organizationRole;
  const role = roleOf ? await roleOf(context.em, identity.userId, organizationId) : organizationId === identity.organizationId ? 'owner' : null;
  if (!role) throw unknown();
  if (role !== 'owner' && role !== 'admin') throw forbidden('Only the organization’s owners and admins manage its OAuth providers', 'organization_admin_required');
}

/** The settings checked as OAUTH_PROVIDERS entries are (400 invalid_oauth_provider naming the fields). */
function checkedSettings(fields: Record<string, unknown>): ConfiguredOAuthProvider {
  const { provider, problems } = parseOAuthProvider(fields);
  if (!provider) throw badRequest('invalid_oauth_provider', `Invalid provider: ${problems.join('; ')}`);
  return provider;
}

function apply(provider: OAuthProvider, settings: ConfiguredOAuthProvider, context: RequestContext): void {
  provider.slug = settings.slug;
  provider.name = settings.name;
  provider.issuer = settings.issuer;
  provider.authorizeUrl = settings.authorizeUrl;
  provider.tokenUrl = settings.tokenUrl;
  provider.userinfoUrl = settings.userinfoUrl;
  provider.revokeUrl = settings.revokeUrl;
  provider.clientId = settings.clientId;
  provider.clientSecretSealed = secretBoxOf(context.services).encrypt(settings.clientSecret);
  provider.scopes = settings.scopes;
}

async function saved(context: RequestContext, work: () => Promise<OAuthProvider>): Promise<OAuthProviderView> {
  try {
    const provider = await work();
    const connected = (await context.em.count(OAuthConnection, { userId: requireIdentity(context).userId, providerId: provider.id })) > 0;
    return providerView(context.services.config, provider, connected);
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw conflict('oauth_provider_slug_taken', 'The organization has a provider with this slug already');
    throw error;
  }
}

export async function createOrganizationProvider(context: RequestContext, input: OAuthProviderInput): Promise<OAuthProviderView> {
  const identity = requireIdentity(context);
  const organizationId = input.organizationId ?? identity.organizationId;
  if (!isUuid(organizationId)) throw notFound('Organization');
  await requireProviderManager(context, organizationId, () => notFound('Organization'));
  const settings = checkedSettings({
    slug: input.slug, name: input.name, issuer: input.issuer, authorize_url: input.authorizeUrl, token_url: input.tokenUrl,
    userinfo_url: input.userinfoUrl, revoke_url: input.revokeUrl, client_id: input.clientId, client_secret: input.clientSecret, scopes: input.scopes ?? [],
  });
  return saved(context, () =>
    context.em.transactional(async (em) => {
      const provider = em.create(OAuthProvider, { organizationId, clientSecretSealed: '' } as OAuthProvider);
      apply(provider, settings, context);
      return provider;
    }),
  );
}

/** An organization provider the caller manages; a global one or another organization's: 404. */
async function managedProvider(context: RequestContext, em: RequestContext['em'], providerId: string): Promise<OAuthProvider> {
  const provider = isUuid(providerId) ? await em.findOne(OAuthProvider, { id: providerId, organizationId: { $ne: null } }) : null;
  if (!provider) throw providerNotFound();
  await requireProviderManager(context, provider.organizationId!, providerNotFound);
  return provider;
}

/** Changes an organization provider; absent fields keep their values (null clears an endpoint), the secret is replaced only when given. */
export async function updateOrganizationProvider(context: RequestContext, providerId: string, input: OAuthProviderUpdateInput): Promise<OAuthProviderView> {
  return saved(context, () =>
    context.em.transactional(async (em) => {
      const provider = await managedProvider(context, em, providerId);
      const keep = <T>(value: T | null | undefined, current: T) => (value === undefined || value === null ? current : value);
      const endpoint = (value: string | null | undefined, current: string | null) => (value === undefined ? current : value);
      const settings = checkedSettings({
        slug: keep(input.slug, provider.slug),
        name: keep(input.name, provider.name),
        issuer: endpoint(input.issuer, provider.issuer),
        authorize_url: endpoint(input.authorizeUrl, provider.authorizeUrl),
        token_url: endpoint(input.tokenUrl, provider.tokenUrl),
        userinfo_url: endpoint(input.userinfoUrl, provider.userinfoUrl),
        revoke_url: endpoint(input.revokeUrl, provider.revokeUrl),
        client_id: keep(input.clientId, provider.clientId),
        client_secret: keep(input.clientSecret, secretBoxOf(context.services).decrypt(provider.clientSecretSealed)),
        scopes: keep(input.scopes, provider.scopes),
      });
      apply(provider, settings, context);
      if (input.isActive !== undefined && input.isActive !== null) provider.isActive = input.isActive;
      return provider;
    }),
  );
}

/** Disables an organization provider: it is no longer listed, and its connections are no longer passed to publishers. */
export async function disableOrganizationProvider(context: RequestContext, providerId: string): Promise<OAuthProviderView> {
  return saved(context, () =>
    context.em.transactional(async (em) => {
      const provider = await managedProvider(context, em, providerId);
      provider.isActive = false;
      return provider;
    }),
  );
}
