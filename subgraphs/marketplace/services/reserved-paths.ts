import { decodePathSegment } from './path-segment.js';

/** Paths under /publishers/ that are routes of their own, never publisher slugs. */
export const RESERVED_SLUGS = new Set(['suggest', 'estimate', 'logo', 'search']);

/** `/publishers/{slug}/<sub-path>` routes the marketplace answers itself; the paid proxy must pass them on. */
const MARKETPLACE_SUBPATHS = new Set(['POST estimate', 'GET logo', 'HEAD logo', 'PUT logo']);

export function isMarketplaceSubpath(method: string, subpath: string): boolean {
  return MARKETPLACE_SUBPATHS.has(`${method.toUpperCase()} ${subpath.replace(/^\/+|\/+$/g, '')}`);
}

/**
 * The tool a call names, if it is a tool call: on a tool-protocol publisher, a POST of one segment
 * (that is not a marketplace route) calls the tool of that name. The data plane, callPublisher and
 * the estimate all route by this.
 */
export function toolCallName(method: string, path: string): string | null {
  const segments = path.split('/').filter(Boolean);
  if (method.toUpperCase() !== 'POST' || segments.length !== 1 || isMarketplaceSubpath(method, path)) return null;
  return decodePathSegment(segments[0]!);
}
