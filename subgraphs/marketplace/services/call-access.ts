import { forbidden } from '../../../shared/errors.js';
import type { PublisherEndpoint } from '../entities/endpoint.js';
import type { Publisher } from '../entities/publisher.js';
import { matchEndpoint, matchIgnoringCase } from './match-endpoint.js';

export interface AllowedMatch {
  /** The endpoint the path names, as spelled. */
  endpoint: PublisherEndpoint | null;
  /** The endpoint it reaches on an upstream that ignores letter case (priced too: the higher price wins). */
  lookalike: PublisherEndpoint | null;
}

/** A call that names a tool, not a path, matches no endpoint. */
export const NO_MATCH: AllowedMatch = { endpoint: null, lookalike: null };

/**
 * Matches a call against the publisher's endpoints and refuses what may not go out, the same way
 * for the proxy and the estimate: under `default_deny` only a listed endpoint in its exact spelling
 * (403 endpoint_not_allowed), and never a protected endpoint, however spelled (403 endpoint_protected).
 * `endpoints` is null for a publisher without an endpoint list (a database publisher): its one
 * documented resource is the root (`POST /publishers/{slug}`, a query), so under `default_deny`
 * only the root passes, and under `default_allow` every path.
 */
export function matchAllowedEndpoint(
  publisher: Pick<Publisher, 'slug' | 'undocumentedEndpointPolicy'>,
  endpoints: readonly PublisherEndpoint[] | null,
  method: string,
  path: string,
): AllowedMatch {
  const endpoint = matchEndpoint(endpoints, method, path)?.endpoint ?? null;
  const documented = endpoint !== null || (endpoints === null && path === '/');
  if (!documented && publisher.undocumentedEndpointPolicy === 'default_deny') {
    throw forbidden(`${method} ${path} is not an endpoint of ${publisher.slug}`, 'endpoint_not_allowed');
  }
  const folded = matchIgnoringCase(endpoints, method, path);
  const shielded = endpoint?.isProtected ? endpoint : folded.protectedEndpoint;
  if (shielded) throw forbidden(shielded.protectionReason ?? `${method} ${path} is protected`, 'endpoint_protected');
  return { endpoint, lookalike: folded.endpoint };
}
