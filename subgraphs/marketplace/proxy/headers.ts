/** What a publisher's record says about headers (the fields of the Publisher record, camelCased). */
export interface HeaderPolicy {
  allowedPassthroughHeaders: string[];
  passthroughHeaderRewrite: Record<string, unknown>;
  upstreamHeaders: Record<string, unknown>;
  requestContentType: string | null;
}

type IncomingHeaders = Record<string, string | string[] | undefined>;

/** Never forwarded, whatever a publisher allows: the caller's credentials and connection-level headers. */
export const NEVER_FORWARDED: ReadonlySet<string> = new Set([
  'authorization',
  'cookie',
  'proxy-authorization',
  'x-payment',
  'payment-signature',
  'x-internal-identity',
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'expect',
]);

/**
 * The headers sent upstream: only the publisher's allowed passthrough headers (renamed by its
 * rewrite map), then its fixed upstream headers, then its content type. Credentials are added
 * after this by the injector, so nothing here can override them.
 */
export function upstreamRequestHeaders(incoming: IncomingHeaders, policy: HeaderPolicy): Record<string, string> {
  const headers: Record<string, string> = {};
  const rewrite = new Map(Object.entries(policy.passthroughHeaderRewrite).map(([from, to]) => [from.toLowerCase(), String(to)]));
  for (const allowed of policy.allowedPassthroughHeaders) {
    const name = allowed.toLowerCase();
    const value = incoming[name];
    if (value === undefined || NEVER_FORWARDED.has(name)) continue;
    const target = (rewrite.get(name) ?? name).toLowerCase();
    if (NEVER_FORWARDED.has(target)) continue;
    headers[target] = Array.isArray(value) ? value.join(', ') : value;
  }
  for (const [name, value] of Object.entries(policy.upstreamHeaders)) {
    if (!NEVER_FORWARDED.has(name.toLowerCase())) headers[name.toLowerCase()] = String(value);
  }
  const contentType = policy.requestContentType ?? (incoming['content-type'] as string | undefined);
  if (contentType) headers['content-type'] = contentType;
  const accept = incoming.accept;
  if (accept && !headers.accept) headers.accept = Array.isArray(accept) ? accept.join(', ') : accept;
  return headers;
}

/** Upstream response headers the caller receives; cookies and connection-level headers stay behind. */
const RETURNED = new Set([
  'content-type',
  'content-encoding',
  'content-language',
  'content-disposition',
  'cache-control',
  'etag',
  'last-modified',
  'expires',
  'vary',
  'location',
  'retry-after',
  'link',
]);

/**
 * A publisher's answer is served from the platform's own origin: should it be a page, it runs
 * sandboxed (a unique origin, no scripts, nothing loaded), so it can never act as the platform
 * in a browser; and it is never sniffed into another type.
 */
const ANSWER_CONFINEMENT = { 'content-security-policy': "sandbox; default-src 'none'", 'x-content-type-options': 'nosniff' };

export function callerResponseHeaders(upstream: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = { ...ANSWER_CONFINEMENT };
  for (const [name, value] of Object.entries(upstream)) {
    const lower = name.toLowerCase();
    if (value === undefined) continue;
    if (RETURNED.has(lower) || lower.startsWith('x-ratelimit-')) headers[lower] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
