import type { PlatformServices } from '../../../shared/services.js';
import { AppError } from '../../../shared/errors.js';
import { readJsonPath } from './json-path.js';
import type { PublisherForCall } from '../services/load-publisher-for-call.js';

export interface UpstreamCredentials {
  headers: Record<string, string>;
  query: Record<string, string>;
}

const DEFAULT_TOKEN_TTL_SECONDS = 300;

/**
 * Token exchange: the platform trades the publisher's stored credentials for a short-lived token
 * at `token_exchange_url` (JSON body = the credentials, or the upstream key in api_key_header),
 * reads it at `token_response_field`, and caches it for `token_cache_ttl_seconds`.
 */
async function exchangedToken(services: PlatformServices, loaded: PublisherForCall): Promise<string> {
  const { publisher, secrets } = loaded;
  const cacheKey = `upstream-token:${publisher.id}`;
  const cached = await services.cache.get(cacheKey);
  if (cached) return cached;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (!secrets.tokenExchangeCredentials && secrets.upstreamApiKey) headers[(publisher.apiKeyHeader ?? 'x-api-key').toLowerCase()] = secrets.upstreamApiKey;
  const response = await services.upstream.fetchBuffered({
    url: new URL(publisher.tokenExchangeUrl!),
    method: publisher.tokenExchangeMethod ?? 'POST',
    headers,
    body: secrets.tokenExchangeCredentials ? JSON.stringify(secrets.tokenExchangeCredentials) : undefined,
  });
  let token: unknown = null;
  try {
    token = readJsonPath(JSON.parse(response.body.toString('utf8')), publisher.tokenResponseField ?? 'access_token');
  } catch {
    token = null;
  }
  if (response.status >= 400 || typeof token !== 'string' || token.length === 0) {
    throw new AppError(502, 'upstream_token_exchange_failed', `The token exchange of ${publisher.slug} failed (status ${response.status})`);
  }
  await services.cache.set(cacheKey, token, publisher.tokenCacheTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS);
  return token;
}

/**
 * The credential the platform injects for the publisher (callers never send it): the stored key
 * in `api_key_header` / `api_key_query_param`, or an exchanged token placed the same way
 * (`token_exchange_mode: query` puts it in the query, otherwise a header; Authorization: Bearer by default).
 */
export async function upstreamCredentials(services: PlatformServices, loaded: PublisherForCall): Promise<UpstreamCredentials> {
  const { publisher, secrets } = loaded;
  const credentials: UpstreamCredentials = { headers: {}, query: {} };
  if (publisher.tokenExchangeUrl) {
    const token = await exchangedToken(services, loaded);
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
