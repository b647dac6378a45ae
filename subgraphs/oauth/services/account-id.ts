import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { PlatformServices } from '../../../shared/services.js';
import type { OAuthProvider } from '../entities/provider.js';
import type { ProviderEndpoints } from './provider-endpoints.js';
import { callProvider } from './provider-http.js';
import { TokenRequestRefused, type TokenSet } from './token-requests.js';

/** Public-key signatures only: a published key can never double as a shared HMAC secret. */
const SIGNATURE_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/** The `sub` of an ID token whose signature (the issuer's published keys), issuer, audience, expiry and nonce hold. */
async function verifiedSubject(services: PlatformServices, provider: OAuthProvider, endpoints: ProviderEndpoints, idToken: string, nonce: string | null) {
  const keys = await callProvider(services, provider.slug, { url: endpoints.jwksUri! });
  if (keys.status !== 200 || !Array.isArray(keys.json?.keys)) throw new TokenRequestRefused('jwks_unreadable');
  try {
    const { payload } = await jwtVerify(idToken, createLocalJWKSet(keys.json as unknown as JSONWebKeySet), {
      issuer: endpoints.issuer!,
      audience: provider.clientId,
      algorithms: SIGNATURE_ALGORITHMS,
    });
    if (nonce !== null && payload.nonce !== nonce) throw new Error('nonce mismatch');
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new Error('no subject');
    return payload.sub;
  } catch {
    throw new TokenRequestRefused('invalid_id_token');
  }
}

/** The account's id from the userinfo endpoint: `sub` (OpenID Connect) or `id` (GitHub and most OAuth 2 APIs). */
async function userinfoSubject(services: PlatformServices, provider: OAuthProvider, url: string, accessToken: string) {
  const answer = await callProvider(services, provider.slug, { url, headers: { authorization: `Bearer ${accessToken}` } });
  const id = answer.json?.sub ?? answer.json?.id;
  if (answer.status !== 200 || (typeof id !== 'string' && typeof id !== 'number') || String(id) === '') {
    throw new TokenRequestRefused('userinfo_unreadable');
  }
  return String(id);
}

/**
 * Whose account was connected: from the ID token, verified, when the provider publishes its keys;
 * else from userinfo. A provider offering neither cannot be connected (the same account linked
 * twice must be recognised).
 */
export async function accountIdOf(
  services: PlatformServices,
  provider: OAuthProvider,
  endpoints: ProviderEndpoints,
  tokens: TokenSet,
  nonce: string | null,
): Promise<string> {
  if (tokens.idToken && endpoints.jwksUri && endpoints.issuer) return verifiedSubject(services, provider, endpoints, tokens.idToken, nonce);
  if (endpoints.userinfoUrl) return userinfoSubject(services, provider, endpoints.userinfoUrl, tokens.accessToken);
  throw new TokenRequestRefused('account_unknown');
}
