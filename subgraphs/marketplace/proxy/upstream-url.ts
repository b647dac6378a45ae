/** api_url + the called path, with the caller's query string and the platform's injected parameters. */
export function upstreamUrl(apiUrl: string, path: string, query: string, injected: Record<string, string>): URL {
  const url = new URL(apiUrl);
  const basePath = url.pathname.replace(/\/+$/, '');
  url.pathname = `${basePath}${path.startsWith('/') ? path : `/${path}`}`;
  url.search = query;
  for (const [name, value] of Object.entries(injected)) url.searchParams.set(name, value);
  return url;
}
