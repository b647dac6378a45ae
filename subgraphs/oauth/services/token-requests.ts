import type { PlatformServices } from '../../../shared/services.js';
import { secretBoxOf } from '../../../shared/secret-box.js';
import type { OAuthProvider } from '../entities/provider.js';
import type { ProviderEndpoints } from './provider-endpoints.js';
import { callProvider, clientBasicAuth } from './provider-http.js';

export interface TokenSet {
  accessToken: string;
  /** A new refresh token (rotation), or null when the provider sent none. */
  refreshToken: string | null;
  expiresAt: Date | null;
  /** The granted scopes when the provider says (else those asked for stand). */
  scopes: string[] | null;
  idToken: string | null;
}

/** The provider refused the grant (invalid_grant and the like): the user must authorize again. */
export class TokenRequestRefused extends Error {
  constructor(readonly reason: string) {
    super(`The provider refused the token request (${reason})`);
  }
}

const OAUTH_ERROR = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/;

/**
 * A token request (RFC 6749 §4.1.3 code exchange, §6 refresh) with the client's credentials as
 * HTTP Basic. 503 when the provider cannot be reached; TokenRequestRefused when it says no.
 */
export async function requestTokens(
  services: PlatformServices,
  provider: OAuthProvider,
  endpoints: ProviderEndpoints,
  form: Record<string, string>,
): Promise<TokenSet> {
  const clientSecret = secretBoxOf(services).decrypt(provider.clientSecretSealed);
  const answer = await callProvider(services, provider.slug, {
    url: endpoints.tokenUrl,
    form,
    headers: { authorization: clientBasicAuth(provider.clientId, clientSecret) },
  });
  const body = answer.json ?? {};
  if (answer.status !== 200 || typeof body.access_token !== 'string' || body.access_token === '') {
    const reason = typeof body.error === 'string' && OAUTH_ERROR.test(body.error) ? body.error : `status_${answer.status}`;
    throw new TokenRequestRefused(reason);
  }
  const expiresIn = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : null,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : null,
    scopes: typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : null,
    idToken: typeof body.id_token === 'string' ? body.id_token : null,
  };
}
