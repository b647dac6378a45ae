import { createHash } from 'node:crypto';
import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import type { Config } from '../../../shared/config.js';
import { randomToken, sha256Hex } from '../../../shared/crypto.js';
import { secretBoxOf } from '../../../shared/secret-box.js';
import { OAuthAuthorizationState } from '../entities/authorization-state.js';
import type { OAuthProvider } from '../entities/provider.js';
import { findVisibleProvider } from './find-provider.js';
import { endpointsOf } from './provider-endpoints.js';
import { enforceOAuthLimit } from './rate-limits.js';
import { checkedRedirect } from './redirects.js';

export const STATE_TTL_MS = 10 * 60 * 1000;

/** The callback registered with the provider: `$PUBLIC_URL/oauth/{slug}/callback`. */
export const callbackUriOf = (config: Config, provider: OAuthProvider) => `${config.publicUrl}/oauth/${provider.slug}/callback`;

export interface AuthorizationStart {
  authorizationUrl: string;
  expiresAt: Date;
}

/**
 * Begins the authorization code flow with PKCE (S256): checks the redirect, records a random
 * single-use `state` bound to the user, provider and redirect (10 minutes), and answers the
 * provider's authorization URL. 401, then 404 (provider), 400 (redirect), 503 (provider unreachable).
 */
export async function startAuthorization(
  context: RequestContext,
  reference: { id?: string; slug?: string },
  redirectUri: unknown,
): Promise<AuthorizationStart> {
  const identity = requireIdentity(context);
  const { services } = context;
  await enforceOAuthLimit(services, 'authorizePerUser', identity.userId);
  const provider = await findVisibleProvider(context, reference);
  const redirect = checkedRedirect(services.config, redirectUri);
  const endpoints = await endpointsOf(services, provider);
  const state = randomToken(32);
  const verifier = randomToken(48);
  const nonce = provider.scopes.includes('openid') ? randomToken(24) : null;
  const callbackUri = callbackUriOf(services.config, provider);
  const expiresAt = new Date(Date.now() + STATE_TTL_MS);
  // Deleted by the oauth sweep (sweeps.ts) an hour after it expires.
  await context.em.transactional(async (em) => {
    em.create(OAuthAuthorizationState, {
      stateHash: sha256Hex(state),
      userId: identity.userId,
      providerId: provider.id,
      redirectUri: redirect,
      callbackUri,
      codeVerifierSealed: secretBoxOf(services).encrypt(verifier),
      nonce,
      expiresAt,
    } as OAuthAuthorizationState);
  });
  const url = new URL(endpoints.authorizeUrl);
  const parameters: Record<string, string> = {
    response_type: 'code',
    client_id: provider.clientId,
    redirect_uri: callbackUri,
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...(provider.scopes.length > 0 ? { scope: provider.scopes.join(' ') } : {}),
    ...(nonce ? { nonce } : {}),
  };
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return { authorizationUrl: url.href, expiresAt };
}
