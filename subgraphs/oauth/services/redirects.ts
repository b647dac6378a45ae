import type { Config } from '../../../shared/config.js';
import { badRequest } from '../../../shared/errors.js';
import { redirectUrl } from '../../../shared/oauth-config.js';

const invalidRedirect = (why: string) => badRequest('invalid_redirect_uri', `redirect_uri ${why}`);

/**
 * Where a user may be sent back after authorizing: an entry of OAUTH_ALLOWED_REDIRECTS, compared
 * after the URL parser normalised both sides (scheme and host case, default port, punycode). An
 * exact entry matches the whole URL; an origin entry matches the origin only, so
 * `https://app.example.com.evil.net` or `https://app.example.com@evil.net` never pass for
 * `https://app.example.com`. Returns the normalised URL.
 */
export function checkedRedirect(config: Config, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalidRedirect('is required');
  if (value.length > 2000 || !URL.canParse(value)) throw invalidRedirect('is not a URL');
  const url = redirectUrl(value);
  if (!url) throw invalidRedirect('must be an http(s) URL without credentials or fragment');
  const { urls, origins } = config.oauth.allowedRedirects;
  if (!urls.includes(url.href) && !origins.includes(url.origin)) throw invalidRedirect('is not allowed (OAUTH_ALLOWED_REDIRECTS)');
  return url.href;
}

/** The redirect with the outcome in its query (`status=success&connection_id=` or `status=error&error=`). */
export function redirectWith(redirectUri: string, outcome: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(outcome)) url.searchParams.set(name, value);
  return url.href;
}
