import type { NextFunction, Request, Response } from 'express';

/**
 * What a browser may send across origins: credentials go in Authorization, payments in their x402
 * headers; a preflight that names others (a publisher's passthrough headers) gets them too, as
 * nothing here is sent with cookies.
 */
const ALLOWED_HEADERS = 'authorization, content-type, accept, apollo-require-preflight, x-payment, payment-signature, x-request-id';
/** Every header: without cookies a browser allows '*', and a publisher's answer has its own (Link, ETag, X-RateLimit-*). */
const EXPOSED_HEADERS = '*';
/** Every method the platform answers, the data plane's forwarded ones included. */
const ALLOWED_METHODS = 'GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * Cross-origin access for the listed browser origins only (CORS_ALLOWED_ORIGINS), without
 * cookies: every call carries its Bearer credential. Their preflights are answered here, before
 * the data plane could forward an OPTIONS upstream; any other origin gets no CORS headers, so a
 * browser keeps it out.
 */
export function corsFor(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (allowed.size === 0) return next();
    res.vary('Origin');
    const origin = req.headers.origin;
    if (typeof origin !== 'string' || !allowed.has(origin)) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
      const requested = req.headers['access-control-request-headers'];
      res.vary('Access-Control-Request-Headers');
      res.setHeader('Access-Control-Allow-Headers', typeof requested === 'string' && requested.trim() ? `${ALLOWED_HEADERS}, ${requested}` : ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
      return void res.status(204).end();
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    next();
  };
}
