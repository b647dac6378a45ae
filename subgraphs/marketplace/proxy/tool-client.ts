import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fetch as undiciFetch } from 'undici';
import { AppError } from '../../../shared/errors.js';
import type { PlatformServices } from '../../../shared/services.js';
import type { PublisherForCall } from '../services/load-publisher-for-call.js';
import { upstreamCredentials } from './credentials.js';

const CLIENT_INFO = { name: 'agent-commerce-platform', version: '0.1.0' };
const MAX_ERROR_DETAIL = 200;

/**
 * A response whose body fails once it passes `maxBytes`, and ends the whole session with that
 * error: an SSE answer cut short would otherwise leave its request pending until the SDK's own
 * timeout, and a tool server could fill the platform's memory.
 */
function capped(response: Response, maxBytes: number, session: AbortController): Response {
  if (!response.body) return response;
  let size = 0;
  const limit = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size <= maxBytes) return controller.enqueue(chunk);
      const tooLarge = new AppError(502, 'upstream_response_too_large', `The tool server's answer exceeds ${maxBytes} bytes`);
      controller.error(tooLarge);
      session.abort(tooLarge);
    },
  });
  return new Response(response.body.pipeThrough(limit), { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * fetch for the MCP transport: every request checked by the SSRF guard, sent through the guarded
 * pool, ended with the session (its cap, its deadline) or by the SDK itself (closing the client
 * must close its streams), and capped like any answer read whole.
 */
function guardedFetch(services: PlatformServices, sessionOf: () => AbortController) {
  const { maxBufferedBytes } = services.config.proxy;
  return async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const session = sessionOf();
    const dispatcher = services.upstream.dispatcherFor(new URL(url));
    const signal = init?.signal ? AbortSignal.any([init.signal, session.signal]) : session.signal;
    const response = await undiciFetch(url, { ...(init as any), signal, redirect: 'error', dispatcher });
    return capped(response as unknown as Response, maxBufferedBytes, session);
  };
}

/** An error and the causes it wraps (the SDK wraps what the transport throws), a few levels deep. */
function causesOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current && chain.length < 5; current = (current as { cause?: unknown }).cause) chain.push(current);
  return chain;
}

/** The first of our own errors in the chain. */
const appErrorIn = (error: unknown): AppError | null => (causesOf(error).find((cause) => cause instanceof AppError) as AppError | undefined) ?? null;

/** The session's deadline fired (a TimeoutError somewhere in the chain), or the SDK's own request timeout (-32001). */
const isTimeout = (error: unknown): boolean =>
  causesOf(error).some((cause) => (cause as { name?: string }).name === 'TimeoutError' || (cause as { code?: number }).code === -32001);

function toolServerFailure(error: unknown, session: AbortSignal, slug: string): AppError {
  // Why the session ended comes first: the SDK reports an aborted request as its own timeout.
  const own = (session.reason instanceof AppError ? session.reason : null) ?? appErrorIn(error);
  if (own) return own;
  if (isTimeout(error) || (session.aborted && isTimeout(session.reason))) {
    return new AppError(504, 'upstream_timeout', `The tool server of ${slug} did not answer in time`);
  }
  return new AppError(502, 'upstream_tool_error', `The tool server of ${slug} failed: ${truncated(String((error as Error)?.message ?? error))}`);
}

/** A tool server's own words, cut to a sensible length before they reach a caller. */
export const truncated = (text: string) => (text.length > MAX_ERROR_DETAIL ? `${text.slice(0, MAX_ERROR_DETAIL)}…` : text);

/** What every request of a session carries: its abort signal, and PROXY_TIMEOUT_MS instead of the SDK's 60 s. */
export type ToolRequestOptions = { signal: AbortSignal; timeout: number };

/**
 * Opens an MCP session (Streamable HTTP, the official SDK client) with the publisher's
 * `mcp_endpoint`, its credentials injected, runs `work`, and ends the session. The session ends at
 * PROXY_TIMEOUT_MS, or as soon as an answer passes PROXY_MAX_BUFFERED_BYTES.
 */
export async function withToolClient<T>(
  services: PlatformServices,
  loaded: PublisherForCall,
  work: (client: Client, options: ToolRequestOptions) => Promise<T>,
  userToken: string | null = null,
): Promise<T> {
  const credentials = await upstreamCredentials(services, loaded, userToken);
  const url = new URL(loaded.publisher.mcpEndpoint!);
  for (const [name, value] of Object.entries(credentials.query)) url.searchParams.set(name, value);
  const { timeoutMs } = services.config.proxy;
  const session = new AbortController();
  const deadline = setTimeout(() => session.abort(new DOMException('The tool server did not answer in time', 'TimeoutError')), timeoutMs);
  // Ending the session gets a controller of its own: a session cut short still says goodbye.
  let current = session;
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: credentials.headers }, fetch: guardedFetch(services, () => current) });
  const client = new Client(CLIENT_INFO);
  const options = { signal: session.signal, timeout: timeoutMs };
  try {
    await client.connect(transport, options);
    return await work(client, options);
  } catch (error) {
    throw toolServerFailure(error, session.signal, loaded.publisher.slug);
  } finally {
    clearTimeout(deadline);
    current = new AbortController();
    endSession(transport, client, current, timeoutMs);
  }
}

/**
 * Ends the session at a tool server that keeps sessions (a DELETE; nothing is sent to one that
 * does not), then closes the client and its event stream. The caller does not wait for it;
 * `ending` bounds it by PROXY_TIMEOUT_MS.
 */
function endSession(transport: StreamableHTTPClientTransport, client: Client, ending: AbortController, timeoutMs: number): void {
  const deadline = setTimeout(() => ending.abort(new DOMException('The tool server did not end the session in time', 'TimeoutError')), timeoutMs);
  deadline.unref();
  void transport
    .terminateSession()
    .catch(() => undefined)
    .finally(() => {
      clearTimeout(deadline);
      void client.close().catch(() => undefined);
    });
}
