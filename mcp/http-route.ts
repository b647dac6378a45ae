import { Router, type Request, type Response } from 'express';
import type { ApolloServer } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ConfigError, loadMcpSettings, type McpSettings } from '../shared/config.js';
import type { RequestContext } from '../shared/context.js';
import { sendError } from '../shared/http/error-response.js';
import { PlatformClient, type ExecuteOperation } from './platform/platform-client.js';
import { SchemaCatalog } from './platform/schema-catalog.js';
import { createToolServer } from './server.js';

export const MCP_CHALLENGE = 'Bearer realm="mcp"';

/** The caller's operations, run in-process through the gateway with the caller's identity (as the REST adapter runs them). */
function inProcess(graphql: ApolloServer<RequestContext>, context: RequestContext): ExecuteOperation {
  return async (query, variables) => {
    const response = await graphql.executeOperation({ query, variables }, { contextValue: context });
    if (response.body.kind !== 'single') throw new Error('Incremental delivery is not used by tools');
    const { data, errors } = response.body.singleResult;
    return { data: data as Record<string, unknown> | null | undefined, errors: errors as never };
  };
}

/**
 * A hosted agent may narrow, never widen, what the platform's MCP_* settings offer, with query
 * parameters: `?read_only=true&toolsets=sql,wallet&project_id=…` (MCP_PROJECT_ID, when set, wins).
 */
function settingsFor(base: McpSettings, req: Request): McpSettings {
  const param = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined);
  const asked = loadMcpSettings({ MCP_READ_ONLY: param('read_only'), MCP_TOOLSETS: param('toolsets'), MCP_PROJECT_ID: param('project_id') });
  return {
    ...base,
    readOnly: base.readOnly || asked.readOnly,
    toolsets: base.toolsets.filter((name) => asked.toolsets.includes(name)),
    projectId: base.projectId ?? asked.projectId,
  };
}

/**
 * /mcp: the same tools as the stdio server over Streamable HTTP, stateless (each POST is answered
 * on its own, as JSON), for the caller of the Bearer API key or access token.
 */
export function mcpRouter(graphql: ApolloServer<RequestContext>, schema: GraphQLSchema, base: McpSettings): Router {
  const router = Router();
  const catalog = new SchemaCatalog(schema);
  router.all('/mcp', async (req: Request, res: Response) => {
    const context = res.locals.context as RequestContext;
    if (!context.identity) {
      res.setHeader('WWW-Authenticate', MCP_CHALLENGE);
      return sendError(res, { status: 401, code: 'unauthorized', message: 'Authorization: Bearer <API key or access token> is required' });
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return sendError(res, { status: 405, code: 'method_not_allowed', message: 'This MCP endpoint is stateless: POST each message' });
    }
    let settings: McpSettings;
    try {
      settings = settingsFor(base, req);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return sendError(res, { status: 400, code: 'invalid_query_parameter', message: error.message.replace(/^Invalid configuration:\s*/, '').replace(/MCP_/g, '').toLowerCase() });
    }
    const platform = new PlatformClient(inProcess(graphql, context));
    const server = createToolServer({ platform, catalog, settings, log: (message) => context.log.error({ requestId: context.requestId }, message) });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return router;
}
