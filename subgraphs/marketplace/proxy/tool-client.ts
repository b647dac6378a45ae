import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fetch as undiciFetch } from 'undici';
import { AppError } from '../../../shared/errors.js';
import type { PlatformServices } from '../../../shared/services.js';
import type { PublisherForCall } from '../services/load-publisher-for-call.js';
import { upstreamCredentials } from './credentials.js';

const CLIENT_INFO = { name: 'agent-commerce-platform', version: '0.1.0' };
const MAX_ERROR_DETAIL = 200;

/** A response whose body fails once it passes `maxBytes`: a tool server cannot fill the platform's memory. */
function capped(response: Response, maxBytes: number): Response {
  if (!response.body) return response;
  let size = 0;
  const limit = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > maxBytes) return controller.error(new AppError(502, 'upstream_response_too_large', `The tool server's answer exceeds ${maxBytes} bytes`));
      controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(limit), { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * fetch for the MCP transport: every request checked by the SSRF guard, sent through the guarded
 * pool, ended by the proxy timeout or by the SDK itself (closing the client must close its
 * streams), and capped like any answer read whole.
 */
function guardedFetch(services: PlatformServices) {
  const { timeoutMs, maxBufferedBytes } = services.config.proxy;
  return async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const dispatcher = services.upstream.dispatcherFor(new URL(url));
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await undiciFetch(url, { ...(init as any), signal, redirect: 'error', dispatcher });
    return capped(response as unknown as Response, maxBufferedBytes);
  };
}

/** The first of our own errors in a chain of causes (the SDK wraps what the transport throws). */
function appErrorIn(error: unknown): AppError | null {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof AppError) return current;
  }
  return null;
}

/** The proxy timeout fired (a TimeoutError somewhere in the chain), or the SDK's own request timeout (-32001). */
function isTimeout(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if ((current as { name?: string }).name === 'TimeoutError' || (current as { code?: number }).code === -32001) return true;
  }
  return false;
}

function toolServerFailure(error: unknown, slug: string): AppError {
  const own = appErrorIn(error);
  if (own) return own;
  if (isTimeout(error)) return new AppError(504, 'upstream_timeout', `The tool server of ${slug} did not answer in time`);
  const detail = String((error as Error)?.message ?? error).slice(0, MAX_ERROR_DETAIL);
  return new AppError(502, 'upstream_tool_error', `The tool server of ${slug} failed: ${detail}`);
}

/**
 * Opens an MCP session (Streamable HTTP, the official SDK client) with the publisher's
 * `mcp_endpoint`, its credentials injected, runs `work`, and closes it.
 */
export async function withToolClient<T>(services: PlatformServices, loaded: PublisherForCall, work: (client: Client) => Promise<T>): Promise<T> {
  const credentials = await upstreamCredentials(services, loaded);
  const url = new URL(loaded.publisher.mcpEndpoint!);
  for (const [name, value] of Object.entries(credentials.query)) url.searchParams.set(name, value);
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: credentials.headers }, fetch: guardedFetch(services) });
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(transport);
    return await work(client);
  } catch (error) {
    throw toolServerFailure(error, loaded.publisher.slug);
  } finally {
    await client.close().catch(() => undefined);
  }
}
