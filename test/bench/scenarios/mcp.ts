import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { BenchScenario } from '../scenario.js';
import { benchScripts } from '../scripts.js';

const CALLS = 300;
const WARM_UP = 30;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round = (ms: number) => Math.round(ms * 100) / 100;

/** One tool call after another through the SDK's own client, as an agent makes them: the round trip each took. */
async function roundTrips(transport: Transport): Promise<Record<string, number>> {
  const client = new Client({ name: 'bench-host', version: '1.0.0' });
  await client.connect(transport);
  try {
    for (let i = 0; i < WARM_UP; i++) await client.callTool({ name: 'get_prepaid_balance', arguments: {} });
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      const result = await client.callTool({ name: 'get_prepaid_balance', arguments: {} });
      times.push(performance.now() - started);
      if (result.isError) throw new Error(`get_prepaid_balance failed: ${JSON.stringify(result.content)}`);
    }
    times.sort((a, b) => a - b);
    return { calls: CALLS, p50Ms: round(percentile(times, 50)), p99Ms: round(percentile(times, 99)), meanMs: round(times.reduce((sum, time) => sum + time, 0) / CALLS) };
  } finally {
    await client.close();
  }
}

/**
 * A tool call's round trip (get_prepaid_balance: one GraphQL operation on the platform) over stdio
 * (the server process is a client of the platform's HTTP interface) and over Streamable HTTP at
 * /mcp (in-process), then /mcp under load from 10 connections.
 */
export const mcpScenario: BenchScenario = {
  name: 'mcp',
  async run({ url, api, measure }) {
    const apiKey = (await api.post('/auth/agent', { name: 'bench-mcp' })).body.data.agent.api_key as string;
    const stdio = await roundTrips(
      new StdioClientTransport({ command: process.execPath, args: [benchScripts.mcpServer, 'start'], env: { ...getDefaultEnvironment(), API_KEY: apiKey, API_URL: url }, stderr: 'ignore' }),
    );
    const http = await roundTrips(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_prepaid_balance', arguments: {} } });
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    await measure({ url: `${url}/mcp`, method: 'POST', headers, body, amount: 200 });
    const loaded = await measure({ url: `${url}/mcp`, method: 'POST', headers, body, connections: 10, durationSeconds: 5 });
    return [
      { scenario: 'mcp', case: 'tool call round trip over stdio (sequential)', figures: stdio },
      { scenario: 'mcp', case: 'tool call round trip over HTTP /mcp (sequential)', figures: http },
      { scenario: 'mcp', case: 'POST /mcp tools/call, 10 connections', measurement: loaded },
    ];
  },
};
