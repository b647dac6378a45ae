import { badRequest } from '../../../shared/errors.js';

/**
 * api_url + the called path (already vetted by `checkedCallPath`), with the caller's query string as
 * written and the platform's injected parameters, which replace any the caller sent under their names.
 */
export function upstreamUrl(apiUrl: string, path: string, query: string, injected: Record<string, string>): URL {
  const url = new URL(apiUrl);
  const basePath = url.pathname.replace(/\/+$/, '');
  url.pathname = `${basePath}${path.startsWith('/') ? path : `/${path}`}`;
  // Never above api_url's own path, whatever a URL parser makes of the called path.
  if (!url.pathname.startsWith(`${basePath}/`)) throw badRequest('invalid_path', 'The called path leaves the publisher’s API');
  url.search = withInjectedParameters(query, injected);
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

/** Edits the query string as text: re-serialising it would change the caller's encoding (`%20` to `+`). */
function withInjectedParameters(query: string, injected: Record<string, string>): string {
  const names = Object.keys(injected);
  if (names.length === 0) return query;
  const kept = query.split('&').filter((pair) => pair !== '' && !names.includes(parameterName(pair)));
  for (const [name, value] of Object.entries(injected)) kept.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return kept.join('&');
}
