import path from 'node:path';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';

/** The built stdio server, as `node dist/mcp/cli.js start` runs it from a clone. */
export const MCP_CLI = path.resolve('dist/mcp/cli.js');

export interface ConnectedClient {
  client: Client;
  /** What the server wrote on stderr (stdout carries only the protocol). */
  stderr: () => string;
  close(): Promise<void>;
}

/** The SDK's own client, over stdio, spawning the server against the platform at `apiUrl` with `env`. */
export async function stdioClient(apiUrl: string, env: Record<string, string>, capabilities: ClientCapabilities = {}): Promise<ConnectedClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_CLI, 'start'],
    env: { ...getDefaultEnvironment(), API_URL: apiUrl, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'mcp-test-host', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** The SDK's own client over Streamable HTTP at the platform's /mcp, with a Bearer credential. */
export async function httpClient(platformUrl: string, token: string, query = ''): Promise<ConnectedClient> {
  const transport = new StreamableHTTPClientTransport(new URL(`${platformUrl}/mcp${query}`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'mcp-test-host', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => '', close: () => client.close() };
}

/** Runs the CLI to its end: exit code and what it wrote. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MCP_CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
