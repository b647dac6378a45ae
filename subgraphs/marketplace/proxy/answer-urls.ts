import type { UpstreamCredentials } from './credentials.js';
import { withoutParameters } from './upstream-url.js';

/** What the caller's view of an upstream answer is worked out from. */
export interface AnswerView {
  /** The URL the upstream was called at: relative URLs in its answer are read against it. */
  requestUrl: URL;
  apiUrl: string;
  /** Where the caller reaches api_url: `/publishers/{slug}`. */
  publicBase: string;
  credentials: UpstreamCredentials;
}

/** Shorter injected values could turn up in unrelated headers by chance; the query clean-up covers them. */
const MIN_SECRET_LENGTH = 8;

/**
 * A URL of the upstream's answer as the caller may see it: the platform's injected query
 * parameters (an upstream key, say, that a trailing-slash redirect echoes back) taken out, and one
 * under api_url shown as the same path under /publishers/{slug}, where following it works.
 */
export function callerUrl(value: string, view: AnswerView): string {
  let url: URL;
  try {
    url = new URL(value, view.requestUrl);
  } catch {
    return value;
  }
  url.search = withoutParameters(url.search.slice(1), Object.keys(view.credentials.query));
  const api = new URL(view.apiUrl);
  const basePath = api.pathname.replace(/\/+$/, '');
  if (url.origin === api.origin && (url.pathname === basePath || url.pathname.startsWith(`${basePath}/`))) {
    return `${view.publicBase}${url.pathname.slice(basePath.length) || '/'}${url.search}${url.hash}`;
  }
  return url.href;
}

/** Every secret the platform sent upstream, as written. */
function injectedSecrets(credentials: UpstreamCredentials): string[] {
  const values = [...Object.values(credentials.headers), ...Object.values(credentials.query)];
  // "Bearer <token>": the token alone is what an upstream would echo.
  const parts = values.flatMap((value) => [value, value.split(' ').at(-1)!]);
  return [...new Set(parts.filter((part) => part.length >= MIN_SECRET_LENGTH))];
}

/**
 * Percent-decoded run by run: one escape that is not valid (a stray "%", a byte that is not UTF-8)
 * must not leave the rest of the value, an encoded credential with it, undecoded. A run that is
 * not UTF-8 is decoded byte by byte.
 */
function decoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
}

/** Decoding rounds: a URL passed on as a parameter of another (a `return_to`) is encoded once more each time. */
const MAX_DECODINGS = 4;

/**
 * A header value as written, and percent-decoded whatever the encoder (hex case, `+` for a space),
 * again and again while that changes it.
 */
function readingsOf(value: string): string[] {
  const readings = [value];
  for (const start of [value, value.replace(/\+/g, ' ')]) {
    let reading = start;
    for (let round = 0; round < MAX_DECODINGS; round++) {
      const next = decoded(reading);
      if (next === reading) break;
      readings.push((reading = next));
    }
  }
  return readings;
}

/**
 * The caller's copy of the upstream's answer headers: URLs shown through the platform, and any
 * header still carrying an injected credential dropped, so a publisher's key never reaches a caller.
 */
export function concealCredentials(headers: Record<string, string>, view: AnswerView): Record<string, string> {
  const secrets = injectedSecrets(view.credentials);
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const rewritten = name === 'location'
      ? callerUrl(value, view)
      : name === 'link'
        ? value.replace(/<([^>]*)>/g, (_, target: string) => `<${callerUrl(target, view)}>`)
        : value;
    if (secrets.length === 0) {
      shown[name] = rewritten;
      continue;
    }
    const readings = readingsOf(rewritten);
    if (!secrets.some((secret) => readings.some((reading) => reading.includes(secret)))) shown[name] = rewritten;
  }
  return shown;
}
