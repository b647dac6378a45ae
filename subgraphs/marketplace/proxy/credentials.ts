import type { PlatformServices } from '../../../shared/services.js';
import { AppError } from '../../../shared/errors.js';
import { sha256Hex } from '../../../shared/crypto.js';
import { readJsonPath } from './json-path.js';
import type { PublisherForCall } from '../services/load-publisher-for-call.js';

export interface UpstreamCredentials {
  headers: Record<string, string>;
  query: Record<string, string>;
  /** The exchanged token sent, if the publisher uses token exchange. */
  exchangedToken?: string;
}

const DEFAULT_TOKEN_TTL_SECONDS = 300;
/** A token is dropped this long before the expiry its issuer announced (`expires_in`). */
const EXPIRY_MARGIN_SECONDS = 30;

/**
 * The cache key covers everything the token was obtained with (URL, method, field, stored
 * credentials, key): a publisher who changes any of them, say after a leak, never gets the old
 * token back. The secrets enter only as a digest.
 */
function tokenCacheKey(loaded: PublisherForCall): string {
  let key = tokenCacheKeys.get(loaded);
  if (key === undefined) {
    const { publisher, secrets } = loaded;
    const settings = [publisher.tokenExchangeUrl, publisher.tokenExchangeMethod, publisher.tokenResponseField, publisher.apiKeyHeader, secrets.tokenExchangeCredentials, secrets.upstreamApiKey];
    key = `upstream-token:${publisher.id}:${sha256Hex(JSON.stringify(settings)).slice(0, 32)}`;
    tokenCacheKeys.set(loaded, key);
  }
  return key;
}

/** Worked out once per call view of a publisher (which is cached), not on every call. */
const tokenCacheKeys = new WeakMap<PublisherForCall, string>();

/** Exchanges in flight, per cache key: concurrent calls on a cold cache share one exchange. */
const exchanges = new Map<string, Promise<string>>();

/**
 * Token exchange: the platform trades the publisher's stored credentials for a short-lived token
 * at `token_exchange_url` (JSON body = the credentials, or the upstream key in api_key_header),
 * reads it at `token_response_field`, and caches it for `token_cache_ttl_seconds`, or until shortly
 * before its `expires_in`. When the cache fails, the token is exchanged anew (see forgivingCache).
 */
async function exchangedToken(services: PlatformServices, loaded: PublisherForCall): Promise<string> {
  const cacheKey = tokenCacheKey(loaded);
  const cached = await services.cache.get(cacheKey);
  if (cached) return cached;
  let exchange = exchanges.get(cacheKey);
  if (!exchange) {
    exchange = exchangeToken(services, loaded, cacheKey).finally(() => exchanges.delete(cacheKey));
    exchanges.set(cacheKey, exchange);
  }
  return exchange;
}

async function exchangeToken(services: PlatformServices, loaded: PublisherForCall, cacheKey: string): Promise<string> {
  const { publisher, secrets } = loaded;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (!secrets.tokenExchangeCredentials && secrets.upstreamApiKey) headers[(publisher.apiKeyHeader ?? 'x-api-key').toLowerCase()] = secrets.upstreamApiKey;
  const response = await services.upstream.fetchBuffered({
    url: new URL(publisher.tokenExchangeUrl!),
    method: publisher.tokenExchangeMethod ?? 'POST',
    headers,
    body: secrets.tokenExchangeCredentials ? JSON.stringify(secrets.tokenExchangeCredentials) : undefined,
  });
  let answer: unknown = null;
  try {
    answer = JSON.parse(response.body.toString('utf8'));
  } catch {
    answer = null;
  }
  const token = answer === null ? null : readJsonPath(answer, publisher.tokenResponseField ?? 'access_token');
  if (response.status >= 400 || typeof token !== 'string' || token.length === 0) {
    throw new AppError(502, 'upstream_token_exchange_failed', `The token exchange of ${publisher.slug} failed (status ${response.status})`);
  }
  const ttl = tokenLifetimeSeconds(publisher.tokenCacheTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS, answer);
  if (ttl > 0) await services.cache.set(cacheKey, token, ttl);
  return token;
}

function tokenLifetimeSeconds(configured: number, answer: unknown): number {
  const expiresIn = (answer as { expires_in?: unknown } | null)?.expires_in;
  const announced = typeof expiresIn === 'number' ? expiresIn : typeof expiresIn === 'string' ? Number(expiresIn) : NaN;
  if (!Number.isFinite(announced) || announced <= 0) return configured;
  // A token that lives less than twice the margin is kept for half its life (else: one exchange per call).
  const usable = announced > 2 * EXPIRY_MARGIN_SECONDS ? announced - EXPIRY_MARGIN_SECONDS : announced / 2;
  return Math.floor(Math.min(configured, usable));
}

/** When each cached token was last forgotten for a 401, per cache key. */
const lastForgotten = new Map<string, number>();
const FORGET_AT_MOST_EVERY_MS = 30_000;

/**
 * The upstream refused the exchanged token (401): the next call exchanges a fresh one. Only if the
 * cache still holds the token that was refused (not a newer one), and at most every 30 s per
 * publisher: any caller can provoke a free 401, and must not be able to make the platform hammer
 * the publisher's token endpoint with it.
 */
export async function forgetExchangedToken(services: PlatformServices, loaded: PublisherForCall, refused: string): Promise<void> {
  const cacheKey = tokenCacheKey(loaded);
  const now = Date.now();
  if (now - (lastForgotten.get(cacheKey) ?? 0) < FORGET_AT_MOST_EVERY_MS) return;
  if (lastForgotten.size >= 10_000) lastForgotten.clear();
  lastForgotten.set(cacheKey, now);
  if ((await services.cache.get(cacheKey)) === refused) await services.cache.delete(cacheKey);
}

/**
 * The credential the platform injects for the publisher (callers never send it): the stored key
 * in `api_key_header` / `api_key_query_param`, or an exchanged token placed the same way
 * (`token_exchange_mode: query` puts it in the query, otherwise a header; Authorization: Bearer by default),
 * or, for a publisher acting on the user's own account, the user's OAuth token.
 */
export async function upstreamCredentials(services: PlatformServices, loaded: PublisherForCall, userToken: string | null = null): Promise<UpstreamCredentials> {
  const { publisher, secrets } = loaded;
  const credentials: UpstreamCredentials = { headers: {}, query: {} };
  if (userToken !== null) {
    // requires_user_oauth: the caller's own token, in api_key_header when the publisher names one.
    const header = publisher.apiKeyHeader?.toLowerCase();
    if (header && header !== 'authorization') credentials.headers[header] = userToken;
    else credentials.headers.authorization = `Bearer ${userToken}`;
    return credentials;
  }
  if (publisher.tokenExchangeUrl) {
    const token = await exchangedToken(services, loaded);
    credentials.exchangedToken = token;
    if (publisher.tokenExchangeMode === 'query' && publisher.apiKeyQueryParam) credentials.query[publisher.apiKeyQueryParam] = token;
    else if (publisher.apiKeyHeader && publisher.apiKeyHeader.toLowerCase() !== 'authorization') credentials.headers[publisher.apiKeyHeader.toLowerCase()] = token;
    else credentials.headers.authorization = `Bearer ${token}`;
    return credentials;
  }
  if (secrets.upstreamApiKey) {
    if (publisher.apiKeyHeader) credentials.headers[publisher.apiKeyHeader.toLowerCase()] = secrets.upstreamApiKey;
    if (publisher.apiKeyQueryParam) credentials.query[publisher.apiKeyQueryParam] = secrets.upstreamApiKey;
  }
  return credentials;
}
