import { AppError } from '../../../shared/errors.js';
import type { PlatformServices } from '../../../shared/services.js';

export const providerUnavailable = (slug: string) =>
  new AppError(503, 'oauth_provider_unavailable', `The account provider ${slug} cannot be reached; try again later`);

export interface ProviderAnswer {
  status: number;
  /** The body as JSON, or null when it is not JSON. */
  json: Record<string, unknown> | null;
}

/**
 * One call to a provider's endpoint through the SSRF-guarded client (provider URLs are chosen by
 * organizations). A provider that cannot be reached, or answers 5xx, is 503
 * oauth_provider_unavailable; a 4xx is the caller's to read. Nothing of the request (client
 * secret, codes, tokens) enters an error.
 */
export async function callProvider(
  services: PlatformServices,
  slug: string,
  request: { url: string; method?: 'GET' | 'POST'; form?: Record<string, string>; headers?: Record<string, string> },
): Promise<ProviderAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  if (request.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  let answer;
  try {
    answer = await services.upstream.fetchBuffered({
      url: new URL(request.url),
      method: request.method ?? (request.form ? 'POST' : 'GET'),
      headers,
      body: request.form ? new URLSearchParams(request.form).toString() : undefined,
    });
  } catch (error) {
    services.log.warn({ provider: slug, code: error instanceof AppError ? error.code : 'network' }, 'oauth provider unreachable');
    throw providerUnavailable(slug);
  }
  if (answer.status >= 500) throw providerUnavailable(slug);
  let json: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(answer.body.toString('utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed;
  } catch {
    json = null;
  }
  return { status: answer.status, json };
}

/** RFC 6749 §2.3.1: the client's id and secret, form-encoded, as HTTP Basic credentials. */
export function clientBasicAuth(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}
