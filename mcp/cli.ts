#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, loadMcpSettings, type McpSettings } from '../shared/config.js';
import { graphqlOverHttp } from './platform/http-client.js';
import { PlatformClient } from './platform/platform-client.js';
import { SchemaCatalog } from './platform/schema-catalog.js';
import { createToolServer } from './server.js';

const DEFAULT_API_URL = 'http://localhost:4000';

/** Stops with one clear line on stderr: stdout carries nothing but the protocol. */
function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function apiUrlOf(value: string | undefined): string {
  const url = value?.trim() || DEFAULT_API_URL;
  if (!URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol)) fail(`API_URL must be the platform's http(s) address, e.g. ${DEFAULT_API_URL}`);
  return url;
}

function settingsOf(env: NodeJS.ProcessEnv): McpSettings {
  try {
    return loadMcpSettings(env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message.replace(/\n\s*/g, ' '));
    throw error;
  }
}

/** `start`: the tool-protocol server over stdio, a client of the platform's public interface with API_KEY. */
async function start(env: NodeJS.ProcessEnv): Promise<void> {
  const apiKey = env.API_KEY?.trim();
  if (!apiKey) fail('API_KEY is required: set it to an API key of your platform account (POST /auth/agent or the dashboard makes one)');
  const apiUrl = apiUrlOf(env.API_URL);
  const settings = settingsOf(env);
  const platform = new PlatformClient(graphqlOverHttp(apiUrl, apiKey));
  const server = createToolServer({ platform, catalog: new SchemaCatalog(platform), settings, log: (message) => process.stderr.write(`${message}\n`) });
  await server.connect(new StdioServerTransport());
  process.stderr.write(`agent-commerce-platform MCP server on stdio, platform ${apiUrl}\n`);
}

const [command] = process.argv.slice(2);
if (command !== 'start') fail('Usage: acp-mcp start   (env: API_KEY required, API_URL, MCP_READ_ONLY, MCP_TOOLSETS, MCP_PROJECT_ID, MCP_MAX_ROWS, MCP_CONFIRM_ABOVE_USD)');
start(process.env).catch((error: unknown) => fail(`MCP server stopped: ${(error as Error)?.message ?? String(error)}`));
