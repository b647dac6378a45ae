import { Readable } from 'node:stream';
import { Agent, errors as undiciErrors, type Dispatcher } from 'undici';
import { AppError } from '../errors.js';
import { assertDestinationAllowed, guardedLookup, type DestinationPolicy } from './ssrf-guard.js';

export interface UpstreamClientOptions {
  timeoutMs: number;
  destinations: DestinationPolicy;
  /** Cap for bodies read into memory (JSON parsing, pay-per-use cost paths). */
  maxBufferedBytes: number;
}

export interface UpstreamRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: Readable | Buffer | string | null;
  signal?: AbortSignal;
}

/**
 * The one way out to publisher-chosen URLs: undici Agents (a keep-alive pool per origin) whose
 * sockets resolve names through the SSRF guard, with connect/headers/body timeouts.
 */
export class UpstreamClient {
  private readonly guarded: Agent;
  /**
   * For the origins of PROXY_ALLOWED_UPSTREAM_ORIGINS only: their host names may resolve to private
   * addresses. A separate pool, because a name lookup cannot tell which port or scheme it is for.
   */
  private readonly allowListed: Agent | null;

  constructor(readonly options: UpstreamClientOptions) {
    const { allowPrivate, allowedOrigins, allowLoopback } = options.destinations;
    this.guarded = this.pool(guardedLookup(allowPrivate, new Set(), allowLoopback));
    const allowedHosts = new Set([...allowedOrigins].map((origin) => new URL(origin).hostname));
    this.allowListed = allowedHosts.size > 0 ? this.pool(guardedLookup(allowPrivate, allowedHosts, allowLoopback)) : null;
  }

  private pool(lookup: ReturnType<typeof guardedLookup>): Agent {
    return new Agent({
      connect: { timeout: this.options.timeoutMs, lookup: lookup as any },
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
      keepAliveTimeout: 10_000,
      connections: 256,
    });
  }

  /** The pool to reach `url` through, once the checks that need no connection have passed. */
  dispatcherFor(url: URL): Agent {
    assertDestinationAllowed(url, this.options.destinations);
    return this.allowListed && this.options.destinations.allowedOrigins.has(url.origin) ? this.allowListed : this.guarded;
  }

  /** Sends the request; the response body is a stream the caller must consume or destroy. */
  async send(request: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    const dispatcher = this.dispatcherFor(request.url);
    try {
      return await dispatcher.request({
        origin: request.url.origin,
        path: `${request.url.pathname}${request.url.search}`,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body ?? undefined,
        signal: request.signal,
        maxRedirections: 0,
      } as Dispatcher.RequestOptions);
    } catch (error) {
      throw upstreamFailure(error);
    }
  }

  /**
   * For the platform's own calls to publisher URLs (token exchange, tool listing): follows up to
   * three redirects on the same origin (or from http to https on the same host), each destination checked
   * again, and reads the body up to the cap. The request carries the publisher's secrets (headers,
   * token-exchange credentials in the body), so a redirect elsewhere is refused, not followed.
   */
  async fetchBuffered(request: UpstreamRequest): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    let current = request;
    for (let hop = 0; hop <= 3; hop++) {
      const response = await this.send(current);
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string' && hop < 3) {
        await response.body.dump();
        const next = new URL(location, current.url);
        if (!isSameHostRedirect(current.url, next)) {
          throw new AppError(502, 'upstream_redirect_refused', `The upstream redirected to another host (${next.host}); it was not followed`);
        }
        // 303 See Other: fetch the answer with a GET, without the request's body (nor its type).
        current =
          response.statusCode === 303
            ? { ...current, url: next, method: 'GET', body: undefined, headers: withoutContentHeaders(current.headers) }
            : { ...current, url: next };
        continue;
      }
      const body = await this.readWhole(response.body);
      return { status: response.statusCode, headers: flattenHeaders(response.headers), body };
    }
    throw new AppError(502, 'upstream_too_many_redirects', 'The upstream redirected too many times');
  }

  /**
   * An upstream's answer read whole, up to the cap and within PROXY_TIMEOUT_MS in all (the body
   * timeout alone allows an answer that trickles in forever). One that stalls, trickles or breaks
   * off fails like a request would: 504, 502.
   */
  async readWhole(body: Readable): Promise<Buffer> {
    const deadline = setTimeout(() => body.destroy(new undiciErrors.BodyTimeoutError()), this.options.timeoutMs);
    try {
      return await readCapped(body, this.options.maxBufferedBytes);
    } catch (error) {
      throw upstreamFailure(error);
    } finally {
      clearTimeout(deadline);
    }
  }

  /** At shutdown: the front door has already dropped its connections, so open upstream streams are cut, not awaited. */
  async close(): Promise<void> {
    await Promise.all([this.guarded.destroy(), this.allowListed?.destroy()]);
  }
}

/** The same origin, or the same host moving from http to https on the default port. */
const isSameHostRedirect = (from: URL, to: URL) =>
  to.origin === from.origin || (to.hostname === from.hostname && from.protocol === 'http:' && to.protocol === 'https:' && to.port === '');

export async function readCapped(body: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw new AppError(502, 'upstream_response_too_large', `The upstream response exceeds ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Timeouts are 504, the guard’s refusals (AppErrors, raised in lookup) keep their code, other network failures are 502. */
export function upstreamFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  ) {
    return new AppError(504, 'upstream_timeout', 'The upstream did not answer in time');
  }
  return new AppError(502, 'upstream_unreachable', 'The upstream could not be reached');
}

function withoutContentHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-(type|length)$/i.test(name)));
}
