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

function matchPath(template: string, path: string): Record<string, string> | null {
  const wanted = segmentsOf(template);
  const given = segmentsOf(path);
  if (wanted.length !== given.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < wanted.length; index++) {
    const pattern = wanted[index]!;
    const names: string[] = [];
    const source = pattern.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([A-Za-z_][A-Za-z0-9_]*)\\?\}/g, (_all, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const match = new RegExp(`^${source}$`).exec(given[index]!);
    if (!match) return null;
    for (const [position, name] of names.entries()) {
      const value = decodeSegment(match[position + 1]!);
      if (value === null) return null;
      params[name] = value;
    }
  }
  return params;
}

const placeholderCount = (template: string) => template.match(PLACEHOLDER)?.length ?? 0;

/**
 * The endpoint descriptor a call hits: same method, path matching the template. A literal path
 * wins over a templated one (`/users/me` before `/users/{id}`); null when none matches.
 */
export function matchEndpoint<E extends { method: string; path: string }>(
  endpoints: readonly E[] | null,
  method: string,
  path: string,
): EndpointMatch<E> | null {
  let best: EndpointMatch<E> | null = null;
  for (const endpoint of endpoints ?? []) {
    if (endpoint.method.toUpperCase() !== method.toUpperCase()) continue;
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
