import { badRequest } from '../../../shared/errors.js';

/**
 * api_url + the called path (already vetted by `checkedCallPath`), with api_url's own query
 * parameters (`?api-version=2`, `?tenant=a`), then the caller's query string as written less any
 * parameter api_url sets (the publisher's settings are not the caller's to override, nor to
 * repeat for an upstream that reads the last value), then the platform's injected parameters,
 * which replace any of the others under their names.
 */
export function upstreamUrl(apiUrl: string, path: string, query: string, injected: Record<string, string>): URL {
  const url = new URL(apiUrl);
  const basePath = url.pathname.replace(/\/+$/, '');
  url.pathname = `${basePath}${path.startsWith('/') ? path : `/${path}`}`;
  // Never above api_url's own path, whatever a URL parser makes of the called path.
  if (!url.pathname.startsWith(`${basePath}/`)) throw badRequest('invalid_path', 'The called path leaves the publisher’s API');
  const ownQuery = url.search.slice(1);
  const callerQuery = withoutParameters(query, ownQuery.split('&').filter(Boolean).map(parameterName));
  url.search = withInjectedParameters(ownQuery && callerQuery ? `${ownQuery}&${callerQuery}` : ownQuery || callerQuery, injected);
  return url;
}

function parameterName(pair: string): string {
  const name = pair.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * The query string without the parameters of these names. Edited as text: re-serialising it would
 * change the caller's encoding (`%20` to `+`).
 */
export function withoutParameters(query: string, names: string[]): string {
  if (names.length === 0) return query;
  return query
    .split('&')
    .filter((pair) => pair !== '' && !names.includes(parameterName(pair)))
    .join('&');
}

function withInjectedParameters(query: string, injected: Record<string, string>): string {
  const names = Object.keys(injected);
  if (names.length === 0) return query;
  const kept = withoutParameters(query, names);
  const added = Object.entries(injected).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return [...(kept ? [kept] : []), ...added].join('&');
}
