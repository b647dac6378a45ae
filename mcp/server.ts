import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpSettings } from '../shared/config.js';
import { PlatformError, type PlatformClient } from './platform/platform-client.js';
import type { SchemaCatalog } from './platform/schema-catalog.js';
import type { ToolContext, ToolDefinition } from './tool.js';
import { allTools } from './tools/index.js';

export const SERVER_INFO = { name: 'agent-commerce-platform', version: '0.1.0' };

const INSTRUCTIONS =
  'Tools of the agent commerce platform: managed PostgreSQL projects, branches and SQL; the publisher marketplace and its ' +
  'pay-per-call proxy; the prepaid wallet. Paid tools state their price first; above the confirmation threshold call them ' +
  'again with confirm: true. Results are capped: a result with truncated: true says how to get the rest.';

/** The tools offered under these settings: MCP_TOOLSETS, MCP_READ_ONLY and MCP_PROJECT_ID decide. */
export function offeredTools(settings: McpSettings, tools: ToolDefinition[] = allTools): ToolDefinition[] {
  return tools.filter(
    (tool) =>
      settings.toolsets.includes(tool.toolset) &&
      (!settings.readOnly || tool.annotations.readOnlyHint === true || tool.runsReadOnly === true) &&
      !(settings.projectId && tool.makesProjects),
  );
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  return json as Tool['inputSchema'];
}

/** A tool's listing and argument parser, made once per process (each /mcp request builds a server). */
const prepared = new WeakMap<ToolDefinition, { listing: Tool; parser: z.ZodType }>();
function preparedOf(tool: ToolDefinition) {
  let entry = prepared.get(tool);
  if (!entry) {
    entry = { listing: listed(tool), parser: z.object(tool.input).strict() };
    prepared.set(tool, entry);
  }
  return entry;
}

function listed(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(z.object(tool.input), 'input'),
    outputSchema: jsonSchemaOf(tool.output, 'output') as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/** A bad argument is the caller's mistake at the protocol level: invalid params, naming the field. */
function parseArguments(tool: ToolDefinition, args: unknown): Record<string, unknown> {
  const parsed = preparedOf(tool).parser.safeParse(args ?? {});
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : 'arguments');
    return `${field}: ${issue.message}`;
  });
  throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${tool.name}: ${problems.join('; ')}`, { fields: parsed.error.issues.map((issue) => issue.path.join('.')) });
}

/** Scoped to one project (MCP_PROJECT_ID): another project's id is refused before anything is asked of the platform. */
function checkProjectScope(settings: McpSettings, args: Record<string, unknown>): void {
  if (!settings.projectId || args.project_id === undefined || args.project_id === settings.projectId) return;
  throw new PlatformError('project_out_of_scope', `This server is limited to project ${settings.projectId} (MCP_PROJECT_ID); nothing was done`);
}

const asText = (value: unknown) => JSON.stringify(value, null, 1);

function toolError(error: unknown, log: (message: string) => void): CallToolResult {
  const known = error instanceof PlatformError;
  if (!known) log(`tool failed: ${(error as Error)?.stack ?? String(error)}`);
  const body = known
    ? { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) }
    : { code: 'internal_error', message: 'The tool failed unexpectedly' };
  return { isError: true, content: [{ type: 'text', text: asText({ error: body }) }] };
}

export interface ToolServerOptions {
  platform: PlatformClient;
  catalog: SchemaCatalog;
  settings: McpSettings;
  /** Where unexpected failures are written (stderr for stdio: stdout carries only the protocol). */
  log: (message: string) => void;
}

/** The tool-protocol server: the same tool definitions over stdio and over Streamable HTTP. */
export function createToolServer(options: ToolServerOptions): Server {
  const tools = offeredTools(options.settings);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  const listing = tools.map((tool) => preparedOf(tool).listing);

  const elicit: ToolContext['elicit'] = async (params) => server.elicitInput({ mode: 'form', ...params } as Parameters<Server['elicitInput']>[0]);
  const canElicit = () => {
    const elicitation = server.getClientCapabilities()?.elicitation as Record<string, unknown> | undefined;
    // An empty elicitation capability is the form mode of clients older than URL elicitation.
    return Boolean(elicitation && (elicitation.form || Object.keys(elicitation).length === 0));
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      const hidden = allToolsNamed(request.params.name) ? ' (not offered under MCP_TOOLSETS / MCP_READ_ONLY / MCP_PROJECT_ID)' : '';
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}${hidden}`);
    }
    const args = parseArguments(tool, request.params.arguments);
    const context: ToolContext = { platform: options.platform, catalog: options.catalog, settings: options.settings, elicit: canElicit() ? elicit : null };
    try {
      checkProjectScope(options.settings, args);
      const result = await tool.run(args as never, context);
      return { content: [{ type: 'text', text: asText(result) }], structuredContent: result };
    } catch (error) {
      if (error instanceof McpError) throw error;
      return toolError(error, options.log);
    }
  });
  return server;
}

const allToolsNamed = (name: string) => allTools.some((tool) => tool.name === name);
