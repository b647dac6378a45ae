import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GraphQLSchema } from 'graphql';
import { ConfigError, type Config } from '../shared/config.js';
import { createLogger, type Logger } from '../shared/logger.js';
import { drainHttpServer } from '../shared/http/drain.js';
import { answerClientError } from '../shared/http/client-error.js';
import { openServices } from '../shared/platform-services.js';
import { gatewaySpentTokens } from '../shared/auth/spent-tokens.js';
import { servePorts } from '../shared/remote-ports.js';
import type { PlatformServices } from '../shared/services.js';
import { resolveBearerCredential } from '../subgraphs/accounts/services/identity.js';
import { createApp } from './app.js';
import { welcomeDeveloper } from './development-welcome.js';
import { createGraphQLServer } from './graphql-server.js';
import { subgraphModules } from './subgraphs.js';
import { readSupergraph } from './supergraph-file.js';

export interface Platform {
  url: string;
  services: PlatformServices;
  httpServer: Server;
  /** The public GraphQL schema (what clients and the REST adapter see). */
  apiSchema: GraphQLSchema;
  close(): Promise<void>;
}

export async function buildSubgraphSchemas(): Promise<Map<string, GraphQLSchema>> {
  const entries = await Promise.all(subgraphModules.map(async (module) => [module.name, await module.buildSchema()] as const));
  return new Map(entries);
}

/** The whole platform in one process: database, subgraphs, gateway, REST adapter, HTTP server. */
export async function startPlatform(config: Config, log: Logger = createLogger(config.logLevel)): Promise<Platform> {
  assertKnownSubgraphs(config);
  const opened = await openServices(config, log, subgraphModules);
  const { services } = opened;
  const schemas = await buildSubgraphSchemas();
  const { server: graphql, apiSchema, oneHop, prepared } = await createGraphQLServer(services, schemas, readSupergraph());
  const spentPortTokens = gatewaySpentTokens(config.redisUrl);
  const ports = servePorts(subgraphModules.map((module) => module.name), services, spentPortTokens);
  const app = createApp({ services, graphql, apiSchema, oneHop, preparedGraphQL: prepared, modules: subgraphModules, resolveBearer: resolveBearerCredential, ports });
  const httpServer = app.listen(config.port, config.host);
  await once(httpServer, 'listening');
  httpServer.keepAliveTimeout = 65_000;
  httpServer.on('clientError', answerClientError);
  const { port } = httpServer.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  // Said once the development welcome is done, so whoever waits for it (a supervisor, a test that
  // stops the process next) never cuts the welcome short.
  await welcomeDeveloper(config, url, log);
  log.info({ url }, 'platform listening');

  return {
    url,
    services,
    httpServer,
    apiSchema,
    async close() {
      await drainHttpServer(httpServer, config.shutdownGraceMs);
      await graphql.stop();
      await opened.close();
      await spentPortTokens.close();
    },
  };
}

/** A misspelt SUBGRAPH_<NAME>_URL would leave that subgraph in-process without a word: refused before anything opens. */
export function assertKnownSubgraphs(config: Config): void {
  const known = subgraphModules.map((module) => module.name);
  const unknown = Object.keys(config.subgraphUrls).filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const names = unknown.map((name) => `SUBGRAPH_${name.toUpperCase()}_URL`).join(', ');
  throw new ConfigError(`Invalid configuration:\n  ${names}: no such subgraph (there are ${known.join(', ')})`);
}
