import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import helmet from 'helmet';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { GraphQLError } from 'graphql';
import { INTERNAL_IDENTITY_HEADER, operationDigest, verifyInternalIdentity } from './auth/internal-token.js';
import { openSpentTokens } from './auth/spent-tokens.js';
import { ConfigError, loadConfigOrExit, type Config } from './config.js';
import { createRequestContext, type RequestContext } from './context.js';
import { unauthorized } from './errors.js';
import { formatPlatformError } from './graphql-errors.js';
import { drainHttpServer } from './http/drain.js';
import { metricsRoute } from './http/metrics-route.js';
import { createLogger, exitAfterLogs, type Logger } from './logger.js';
import { openServices } from './platform-services.js';
import { servePorts } from './remote-ports.js';
import { stopOnSignals } from './stop-on-signals.js';
import type { SubgraphModule } from './subgraph.js';

export interface SubgraphServer {
  url: string;
  httpServer: Server;
  close(): Promise<void>;
}

/**
 * One subgraph as its own process (split mode). It trusts only the gateway: every request must
 * carry the gateway's short-lived identity token, signed with INTERNAL_SECRET. It delivers its
 * module's events, answers its module's ports to the other processes (/internal/ports/:name) and
 * asks theirs over HTTP (`platformModules` names them all; SUBGRAPH_<NAME>_URL says where they run).
 */
export async function serveSubgraph(module: SubgraphModule, platformModules: readonly SubgraphModule[], config: Config, log: Logger): Promise<SubgraphServer> {
  const opened = await openServices(config, log, [module], { platformModules, eventConsumers: [module.name] });
  const { services } = opened;
  const spent = await openSpentTokens(module.name, config.redisUrl, opened.databaseUrl).catch(async (error) => {
    await opened.close();
    throw error;
  });
  const server = new ApolloServer<RequestContext>({
    schema: await module.buildSchema(),
    introspection: true,
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    formatError: (formatted, error) =>
      formatPlatformError(error instanceof GraphQLError ? error : new GraphQLError(formatted.message), log).toJSON(),
  });
  await server.start();

  const app = express();
  app.disable('x-powered-by');
  app.use(helmet());
  app.get('/healthz', (_req, res) => void res.json({ data: { status: 'ok', subgraph: module.name } }));
  // Its own figures (a marketplace process makes the GraphQL paid calls of split mode).
  app.get('/metrics', metricsRoute(services));
  app.post('/internal/ports/:name', express.text({ type: () => true, limit: '1mb' }), servePorts([module.name], services, spent));
  app.use(
    '/graphql',
    express.json({ limit: '1mb' }),
    expressMiddleware(server, {
      context: async ({ req }) => {
        const token = req.header(INTERNAL_IDENTITY_HEADER);
        if (!token) throw unauthorized('Subgraphs are reached through the gateway only', 'gateway_token_required');
        const operation = operationDigest(req.body?.query, req.body?.variables);
        const verified = await verifyInternalIdentity(config.secrets.INTERNAL_SECRET, token, { subgraph: module.name, operation, spent }).catch(() => {
          throw new GraphQLError('Invalid gateway token', { extensions: { code: 'invalid_gateway_token', status: 401, http: { status: 401 } } });
        });
        // Per-address limits must see the caller's address, which only the gateway knows.
        return createRequestContext(services, verified.requestId, verified.identity, verified.ip ?? req.ip ?? 'unknown', verified.operator);
      },
    }),
  );
  const httpServer = app.listen(config.port, config.host);
  await once(httpServer, 'listening');
  const { port } = httpServer.address() as AddressInfo;
  const url = `http://${config.host}:${port}/graphql`;
  log.info({ subgraph: module.name, url }, 'subgraph listening');
  return {
    url,
    httpServer,
    async close() {
      await drainHttpServer(httpServer, config.shutdownGraceMs);
      await server.stop();
      await opened.close();
      await spent.close();
    },
  };
}

/** Entry point body of `gateway/subgraph-main.ts`. */
export async function runSubgraphProcess(module: SubgraphModule, platformModules: readonly SubgraphModule[]) {
  const config = loadConfigOrExit();
  const log = createLogger(config.logLevel);
  const starting = serveSubgraph(module, platformModules, config, log);
  stopOnSignals(starting, log, config.shutdownGraceMs);
  await starting.catch((error) => {
    if (!(error instanceof ConfigError)) throw error;
    // A setting that cannot work (a port nobody answers, a second replica without Redis): said plainly, as a bad setting is.
    console.error(error.message);
    exitAfterLogs(log, 1);
  });
}
