import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fetch as undiciFetch } from 'undici';
import { AppError } from '../../../shared/errors.js';
import type { PlatformServices } from '../../../shared/services.js';
import type { PublisherForCall } from '../services/load-publisher-for-call.js';
import { upstreamCredentials } from './credentials.js';

const CLIENT_INFO = { name: 'agent-commerce-platform', version: '0.1.0' };

/** fetch for the MCP transport: every request checked by the SSRF guard and sent through the guarded pool. */
function guardedFetch(services: PlatformServices) {
  return async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const dispatcher = services.upstream.dispatcherFor(new URL(url));
    const signal = AbortSignal.timeout(services.config.proxy.timeoutMs);
    return undiciFetch(url, { ...(init as any), signal, redirect: 'error', dispatcher }) as unknown as Response;
  };
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
    if (error instanceof AppError) throw error;
    throw new AppError(502, 'upstream_tool_error', `The tool server of ${loaded.publisher.slug} failed: ${(error as Error).message}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}
