import type { RequestContext } from '../../../shared/context.js';
import { AppError, unauthorized } from '../../../shared/errors.js';
import type { Publisher } from '../entities/publisher.js';

/**
 * For a publisher with `requires_user_oauth`: the caller's own access token at the publisher's
 * OAuth provider (the oauth domain answers, refreshing it when due). No connection: 400
 * oauth_connection_required naming the provider and where to connect; one the provider no longer
 * honours: 401 oauth_reauthorization_required. Asked before any money moves; the token itself
 * never enters an error.
 */
export async function userOAuthTokenFor(context: RequestContext, publisher: Publisher): Promise<string | null> {
  if (!publisher.requiresUserOauth) return null;
  if (!context.identity) throw unauthorized();
  const providerId = publisher.oauthProviderId;
  const answer = providerId ? await context.services.ports.userOAuthToken?.(context.em, context.identity.userId, providerId) : undefined;
  if (answer?.status === 'ok') return answer.accessToken;
  const authorizePath = providerId ? `/oauth/providers/${providerId}/authorize` : null;
  const details = { providerId, providerSlug: answer?.providerSlug ?? null, authorizePath };
  const provider = answer?.providerSlug ?? 'its OAuth provider';
  const where = authorizePath ? `: GET ${authorizePath}?redirect_uri=…` : '';
  if (answer?.status === 'needs_reauthorization') {
    throw new AppError(401, 'oauth_reauthorization_required', `Your ${provider} connection must be authorized again${where}; nothing was charged`, details);
  }
  throw new AppError(400, 'oauth_connection_required', `${publisher.slug} acts on your own ${provider} account: connect it first${where}; nothing was charged`, details);
}
