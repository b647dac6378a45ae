import { sha256Hex } from '../../../shared/crypto.js';
import type { PlatformServices } from '../../../shared/services.js';
import type { OAuthProvider } from '../entities/provider.js';
import { callProvider, providerUnavailable } from './provider-http.js';

export interface ProviderEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string | null;
  revokeUrl: string | null;
  /** From discovery: where the ID token's signing keys are; null without an issuer. */
  jwksUri: string | null;
  issuer: string | null;
}

const DISCOVERY_CACHE_SECONDS = 300;
const DISCOVERED = ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'revocation_endpoint', 'jwks_uri'] as const;
type Discovered = Partial<Record<(typeof DISCOVERED)[number], string>>;

const isHttpUrl = (value: unknown): value is string => typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

/**
 * The issuer's OpenID Connect discovery document (cached for 5 minutes, shared by replicas when
 * Redis is configured). Its `issuer` must be the one configured (OpenID Connect Discovery §4.3).
 */
async function discover(services: PlatformServices, provider: OAuthProvider): Promise<Discovered> {
  const issuer = provider.issuer!;
  const cacheKey = `oauth-discovery:${sha256Hex(issuer).slice(0, 32)}`;
  const cached = await services.cache.get(cacheKey);
  if (cached) return JSON.parse(cached) as Discovered;
  const answer = await callProvider(services, provider.slug, { url: `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration` });
  if (answer.status !== 200 || !answer.json || answer.json.issuer !== issuer) throw providerUnavailable(provider.slug);
  const document: Discovered = {};
  for (const field of DISCOVERED) if (isHttpUrl(answer.json[field])) document[field] = answer.json[field];
  await services.cache.set(cacheKey, JSON.stringify(document), DISCOVERY_CACHE_SECONDS);
  return document;
}

/** The provider's endpoints: those it was configured with, the rest (and the ID token's keys) from its issuer's discovery. */
export async function endpointsOf(services: PlatformServices, provider: OAuthProvider): Promise<ProviderEndpoints> {
  const found: Discovered = provider.issuer !== null ? await discover(services, provider) : {};
  const authorizeUrl = provider.authorizeUrl ?? found.authorization_endpoint;
  const tokenUrl = provider.tokenUrl ?? found.token_endpoint;
  if (!authorizeUrl || !tokenUrl) throw providerUnavailable(provider.slug);
  return {
    authorizeUrl,
    tokenUrl,
    userinfoUrl: provider.userinfoUrl ?? found.userinfo_endpoint ?? null,
    revokeUrl: provider.revokeUrl ?? found.revocation_endpoint ?? null,
    jwksUri: found.jwks_uri ?? null,
    issuer: provider.issuer,
  };
}
