import { z } from 'zod';

/** A provider from OAUTH_PROVIDERS: every organization's users may connect to it. */
export interface ConfiguredOAuthProvider {
  slug: string;
  name: string;
  authorizeUrl: string | null;
  tokenUrl: string | null;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  userinfoUrl: string | null;
  revokeUrl: string | null;
  issuer: string | null;
}

export const OAUTH_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const httpUrl = z
  .string()
  .max(2000)
  .url()
  .refine((value) => /^https?:$/.test(new URL(value).protocol), 'must be an http(s) URL');
const optionalUrl = httpUrl.nullish().transform((value) => value ?? null);

const providerSchema = z
  .object({
    slug: z.string().regex(OAUTH_SLUG, 'must be lower-case letters, digits and dashes'),
    name: z.string().min(1).max(120),
    authorize_url: optionalUrl,
    token_url: optionalUrl,
    client_id: z.string().min(1).max(500),
    client_secret: z.string().min(1).max(2000),
    scopes: z.array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'a scope has no spaces or quotes')).max(50).default([]),
    userinfo_url: optionalUrl,
    revoke_url: optionalUrl,
    issuer: optionalUrl,
  })
  .strict()
  .refine((p) => p.issuer !== null || (p.authorize_url !== null && p.token_url !== null), 'needs issuer, or authorize_url and token_url');

/**
 * One provider's settings (snake_case, as in OAUTH_PROVIDERS), checked: problems name the field,
 * never its value (a client secret could be among them).
 */
export function parseOAuthProvider(entry: unknown): { provider?: ConfiguredOAuthProvider; problems: string[] } {
  const parsed = providerSchema.safeParse(entry);
  if (!parsed.success) {
    return { problems: parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'provider'}: ${issue.message}`) };
  }
  const p = parsed.data;
  return {
    problems: [],
    provider: {
      slug: p.slug,
      name: p.name,
      authorizeUrl: p.authorize_url,
      tokenUrl: p.token_url,
      clientId: p.client_id,
      clientSecret: p.client_secret,
      scopes: p.scopes,
      userinfoUrl: p.userinfo_url,
      revokeUrl: p.revoke_url,
      // Kept exactly as given: discovery, ID tokens and RFC 9207 compare issuers character for character.
      issuer: p.issuer,
    },
  };
}

/**
 * OAUTH_PROVIDERS: a JSON array of `{slug, name, authorize_url, token_url, client_id,
 * client_secret, scopes, userinfo_url?, revoke_url?, issuer?}`. Errors name the entry and the
 * field, never a value (the entry holds a client secret).
 */
export function parseOAuthProviders(text: string): { providers: ConfiguredOAuthProvider[]; problems: string[] } {
  if (text.trim() === '') return { providers: [], problems: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { providers: [], problems: ['is not valid JSON'] };
  }
  if (!Array.isArray(raw)) return { providers: [], problems: ['must be a JSON array of providers'] };
  const problems: string[] = [];
  const providers: ConfiguredOAuthProvider[] = [];
  for (const [index, entry] of raw.entries()) {
    const parsed = parseOAuthProvider(entry);
    problems.push(...parsed.problems.map((problem) => `entry ${index + 1} ${problem}`));
    if (!parsed.provider) continue;
    if (providers.some((other) => other.slug === parsed.provider!.slug)) problems.push(`entry ${index + 1}: slug ${parsed.provider.slug} is given twice`);
    providers.push(parsed.provider);
  }
  return { providers, problems };
}

/** A URL a user may be sent back to: http(s), without credentials or fragment; null for anything else. */
export function redirectUrl(text: string): URL | null {
  const url = URL.canParse(text) ? new URL(text) : null;
  return url && /^https?:$/.test(url.protocol) && !url.username && !url.password && !url.hash ? url : null;
}

/**
 * OAUTH_ALLOWED_REDIRECTS: exact URLs, or origins (an entry without a path), normalised by the
 * URL parser (case of scheme and host, default ports, punycode). A redirect is matched whole
 * against an exact entry or by its origin against an origin entry, never by prefix.
 */
export function parseAllowedRedirects(text: string): { urls: string[]; origins: string[]; problems: string[] } {
  const urls: string[] = [];
  const origins: string[] = [];
  const problems: string[] = [];
  for (const [index, entry] of text.split(',').map((part) => part.trim()).filter(Boolean).entries()) {
    const url = redirectUrl(entry);
    if (!url) {
      problems.push(`entry ${index + 1} is not an http(s) URL without credentials or fragment`);
      continue;
    }
    if (url.pathname === '/' && !url.search && !/\/$/.test(entry)) origins.push(url.origin);
    else urls.push(url.href);
  }
  return { urls, origins, problems };
}
