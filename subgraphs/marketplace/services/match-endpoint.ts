import { decodePathSegment } from './path-segment.js';

/** Placeholders are `{name}`: letters, digits and underscores, one path segment each. */
export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export interface EndpointMatch<E> {
  endpoint: E;
  params: Record<string, string>;
}

const segmentsOf = (path: string) => path.split('?')[0]!.split('/').filter((segment) => segment !== '');

/** One template segment: a literal, or a pattern whose groups are the named placeholders. */
type TemplateSegment = { literal: string } | { pattern: RegExp; names: string[] };

interface CompiledTemplate {
  segments: TemplateSegment[];
  placeholders: number;
}

/** Templates come from a handful of publishers' endpoint lists: compiled once, not per call (and once more case-folded). */
const compiledTemplates = new Map<string, CompiledTemplate>();
const MAX_COMPILED_TEMPLATES = 50_000;

/** İ, ı and ſ: letters that case-insensitive servers (Java's equalsIgnoreCase, say) take for i and s, which toLowerCase does not. */
const FOLDED_AS_ASCII: Record<string, string> = { '\u0130': 'i', '\u0131': 'i', '\u017f': 's' };

/** One character at a time, so a fold never changes a segment's length or merges letters. */
function foldCase(text: string): string {
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  let folded = '';
  for (const character of text) {
    const lower = FOLDED_AS_ASCII[character] ?? character.toLowerCase();
    folded += lower.length === character.length ? lower : character;
  }
  return folded;
}

/** Decoded first, then folded: `%41dmin` is `Admin`, and ignoring case, `admin`. */
const decodedSegment = (segment: string, ignoreCase: boolean) => (ignoreCase ? foldCase(decodePathSegment(segment)) : decodePathSegment(segment));

function compileTemplate(template: string, ignoreCase: boolean): CompiledTemplate {
  const cacheKey = ignoreCase ? `i ${template}` : template;
  let compiled = compiledTemplates.get(cacheKey);
  if (compiled) return compiled;
  let placeholders = 0;
  const segments = segmentsOf(template).map((segment): TemplateSegment => {
    const names = [...segment.matchAll(PLACEHOLDER)].map((match) => match[1]!);
    const literals = segment.split(/\{[A-Za-z_][A-Za-z0-9_]*\}/).map((literal) => decodedSegment(literal, ignoreCase));
    placeholders += names.length;
    if (names.length === 0) return { literal: literals[0]! };
    const source = literals.map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('([^/]+)');
    return { pattern: new RegExp(`^${source}$`, 's'), names };
  });
  if (compiledTemplates.size >= MAX_COMPILED_TEMPLATES) compiledTemplates.clear();
  compiledTemplates.set(cacheKey, (compiled = { segments, placeholders }));
  return compiled;
}

/** Servers that take `;` parameters (`/admin;x=1`) read the segment before them. */
const sameLiteral = (literal: string, given: string) => given === literal || (given.includes(';') && given.slice(0, given.indexOf(';')) === literal);

/** Both sides are compared decoded: `res%65t` is `reset`, and a template may be written either way. */
function matchSegments(template: CompiledTemplate, given: string[]): Record<string, string> | null {
  if (template.segments.length !== given.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < given.length; index++) {
    const wanted = template.segments[index]!;
    if ('literal' in wanted) {
      if (!sameLiteral(wanted.literal, given[index]!)) return null;
      continue;
    }
    const segment = given[index]!;
    // As for literals: a server that strips `;params` reads `/report-1.json;x=1` as `/report-1.json`.
    const match = wanted.pattern.exec(segment) ?? (segment.includes(';') ? wanted.pattern.exec(segment.slice(0, segment.indexOf(';'))) : null);
    if (!match) return null;
    for (const [position, name] of wanted.names.entries()) params[name] = match[position + 1]!;
  }
  return params;
}

/**
 * The endpoint descriptor a call hits: same method, path matching the template. A literal path
 * wins over a templated one (`/users/me` before `/users/{id}`); null when none matches. HEAD is
 * the GET of the same path unless HEAD is documented itself.
 */
export function matchEndpoint<E extends { method: string; path: string }>(endpoints: readonly E[] | null, method: string, path: string): EndpointMatch<E> | null {
  return matchGiven(endpoints, method.toUpperCase(), givenSegments(path, false), false);
}

const givenSegments = (path: string, ignoreCase: boolean) => segmentsOf(path).map((segment) => decodedSegment(segment, ignoreCase));

/** The best match for `method`, and for a HEAD without one of its own, the GET's. */
function matchGiven<E extends { method: string; path: string }>(
  endpoints: readonly E[] | null,
  method: string,
  given: string[],
  ignoreCase: boolean,
): EndpointMatch<E> | null {
  for (const tried of method === 'HEAD' ? ['HEAD', 'GET'] : [method]) {
    let best: (EndpointMatch<E> & { placeholders: number }) | null = null;
    for (const endpoint of endpoints ?? []) {
      if (endpoint.method.toUpperCase() !== tried) continue;
      const template = compileTemplate(endpoint.path, ignoreCase);
      if (best && template.placeholders >= best.placeholders) continue;
      const params = matchSegments(template, given);
      if (params) best = { endpoint, params, placeholders: template.placeholders };
    }
    if (best) return { endpoint: best.endpoint, params: best.params };
  }
  return null;
}

export interface CaseInsensitiveMatch<E> {
  /** The endpoint the call reaches on an upstream that ignores letter case (`/Premium/1` for `/premium/{id}`). */
  endpoint: E | null;
  /**
   * The protected endpoint it reaches, however it is spelled (`/ADMIN` or `/%41dmin` for a protected
   * `/admin`). A protected template does not shadow a public literal (`/users/me` stays public
   * beside a protected `/users/{id}`): it counts only when no endpoint with fewer placeholders
   * matches the call, as routing would pick that one.
   */
  protectedEndpoint: E | null;
}

/** How a call matches ignoring letter case, for pricing and protection alike: the path is decoded and folded once. */
export function matchIgnoringCase<E extends { method: string; path: string; isProtected: boolean }>(
  endpoints: readonly E[] | null,
  method: string,
  path: string,
): CaseInsensitiveMatch<E> {
  const wanted = method.toUpperCase();
  const given = givenSegments(path, true);
  const endpoint = matchGiven(endpoints, wanted, given, true)?.endpoint ?? null;
  const guarded = endpoints ? guardedOf(endpoints) : [];
  const hit = endpoint?.isProtected ? endpoint : guarded.length > 0 ? (matchGiven(guarded, wanted, given, true)?.endpoint ?? null) : null;
  const reached = hit !== null && (hit === endpoint || placeholdersOf(endpoint!.path) >= placeholdersOf(hit.path));
  return { endpoint, protectedEndpoint: reached ? hit : null };
}

const placeholdersOf = (template: string) => compileTemplate(template, true).placeholders;

/** An endpoint list's protected endpoints, picked out once per list (the paid path asks on every call). */
const guardedByList = new WeakMap<readonly object[], readonly object[]>();

function guardedOf<E extends { isProtected: boolean }>(endpoints: readonly E[]): readonly E[] {
  let guarded = guardedByList.get(endpoints) as readonly E[] | undefined;
  if (!guarded) {
    guarded = endpoints.filter((endpoint) => endpoint.isProtected);
    guardedByList.set(endpoints, guarded);
  }
  return guarded;
}

/** A template is well-formed when it starts with "/" and every brace belongs to a `{name}` placeholder. */
export function isWellFormedPathTemplate(template: string): boolean {
  if (!template.startsWith('/') || /\s/.test(template)) return false;
  return !/[{}]/.test(template.replace(PLACEHOLDER, ''));
}
