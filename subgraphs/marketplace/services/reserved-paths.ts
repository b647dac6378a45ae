/** Paths under /publishers/ that are routes of their own, never publisher slugs. */
export const RESERVED_SLUGS = new Set(['suggest', 'estimate', 'logo', 'search']);

/** `/publishers/{slug}/<sub-path>` routes the marketplace answers itself; the paid proxy must pass them on. */
const MARKETPLACE_SUBPATHS = new Set(['POST estimate', 'GET logo', 'HEAD logo', 'PUT logo']);

export function isMarketplaceSubpath(method: string, subpath: string): boolean {
  return MARKETPLACE_SUBPATHS.has(`${method.toUpperCase()} ${subpath.replace(/^\/+|\/+$/g, '')}`);
}
