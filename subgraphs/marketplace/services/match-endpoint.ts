/** Placeholders are `{name}`: letters, digits and underscores, one path segment each. */
export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export interface EndpointMatch<E> {
  endpoint: E;
  params: Record<string, string>;
}

/** A segment that is not valid percent-encoding matches nothing (rather than throwing). */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

const segmentsOf = (path: string) => path.split('?')[0]!.split('/').filter((segment) => segment !== '');

/** Templates are written plainly; the called path is compared decoded, so `res%65t` is `reset`. */
function matchPath(template: string, path: string): Record<string, string> | null {
  const wanted = segmentsOf(template);
  const given = segmentsOf(path).map(decodeSegment);
  if (wanted.length !== given.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < wanted.length; index++) {
    const segment = given[index];
    if (segment === null || segment === undefined) return null;
    const names: string[] = [];
    const source = wanted[index]!.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([A-Za-z_][A-Za-z0-9_]*)\\?\}/g, (_all, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const match = new RegExp(`^${source}$`, 's').exec(segment);
    if (!match) return null;
    for (const [position, name] of names.entries()) params[name] = match[position + 1]!;
  }
  return params;
}

const placeholderCount = (template: string) => template.match(PLACEHOLDER)?.length ?? 0;

/**
 * The endpoint descriptor a call hits: same method, path matching the template. A literal path
 * wins over a templated one (`/users/me` before `/users/{id}`); null when none matches. HEAD is
 * the GET of the same path unless HEAD is documented itself.
 */
export function matchEndpoint<E extends { method: string; path: string }>(
  endpoints: readonly E[] | null,
  method: string,
  path: string,
): EndpointMatch<E> | null {
  const wanted = method.toUpperCase();
  const exact = bestMatch(endpoints, wanted, path);
  return exact ?? (wanted === 'HEAD' ? bestMatch(endpoints, 'GET', path) : null);
}

function bestMatch<E extends { method: string; path: string }>(endpoints: readonly E[] | null, method: string, path: string): EndpointMatch<E> | null {
  let best: EndpointMatch<E> | null = null;
  for (const endpoint of endpoints ?? []) {
    if (endpoint.method.toUpperCase() !== method) continue;
    const params = matchPath(endpoint.path, path);
    if (params && (!best || placeholderCount(endpoint.path) < placeholderCount(best.endpoint.path))) best = { endpoint, params };
  }
  return best;
}

/** A template is well-formed when it starts with "/" and every brace belongs to a `{name}` placeholder. */
export function isWellFormedPathTemplate(template: string): boolean {
  if (!template.startsWith('/') || /\s/.test(template)) return false;
  return !/[{}]/.test(template.replace(PLACEHOLDER, ''));
}
