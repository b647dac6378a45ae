import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { RequestContext } from '../shared/context.js';
import { formatPlatformError } from '../shared/graphql-errors.js';
import type { PlatformServices } from '../shared/services.js';
import { InProcessSubgraph } from './local-data-source.js';
import { OneHopRouter } from './one-hop.js';
import { PreparedGraphQL } from './prepared-graphql.js';
import { RemoteSubgraph } from './remote-data-source.js';
import { requestGuards } from './request-guards.js';

/**
 * Query shape limits, refused before planning. Depth 22 admits the standard introspection query
 * (21) and little more. The token limit is the parser's own (parseOptions below): armor's parses
 * outside Apollo's error handling, so a syntax error became a 500.
 */
const MAX_TOKENS = 4000;
const armor = new ApolloArmor({
  maxDepth: { n: 22, ignoreIntrospection: false },
  maxAliases: { n: 20 },
  maxDirectives: { n: 20 },
  maxTokens: { enabled: false },
  costLimit: { maxCost: 10000 },
  blockFieldSuggestion: { enabled: false },
});

export async function createGraphQLServer(
  services: PlatformServices,
  schemas: Map<string, GraphQLSchema>,
  supergraphSdl: string,
): Promise<{ server: ApolloServer<RequestContext>; apiSchema: GraphQLSchema; oneHop?: OneHopRouter; prepared?: PreparedGraphQL }> {
  const { config, log } = services;
  const inProcess = new Map<string, InProcessSubgraph>();
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name }) => {
      const url = config.subgraphUrls[name];
      if (url) return new RemoteSubgraph(name, url, config.secrets.INTERNAL_SECRET);
      const schema = schemas.get(name);
      if (!schema) throw new Error(`Subgraph ${name} is in the supergraph but not in this build`);
      const subgraph = new InProcessSubgraph(schema, log);
      inProcess.set(name, subgraph);
      return subgraph;
    },
  });
  const oneHop = new OneHopRouter(supergraphSdl, inProcess);
  let apiSchema: GraphQLSchema | undefined;
  gateway.onSchemaLoadOrUpdate((update) => {
    apiSchema = update.apiSchema;
  });
  const protection = armor.protect();
  const validationRules = protection.validationRules as any[];
  const formatError = (formatted: GraphQLFormattedError, error: unknown) => {
    const graphQLError =
      error instanceof GraphQLError ? error : new GraphQLError(formatted.message, { extensions: formatted.extensions });
    return formatPlatformError(graphQLError, log).toJSON();
  };
  const server = new ApolloServer<RequestContext>({
    gateway: {
      onSchemaLoadOrUpdate: (callback) => gateway.onSchemaLoadOrUpdate(callback),
      stop: () => gateway.stop(),
      async load(options) {
        const loaded = await gateway.load(options);
        if (!config.graphqlOneHop || !loaded.executor) return loaded;
        return { ...loaded, executor: oneHop.executor(loaded.executor as any) };
      },
    },
    introspection: true,
    parseOptions: { maxTokens: MAX_TOKENS },
    // The process stops the platform as a whole (main.ts); Apollo's own handler would stop the
    // server under it and re-raise the signal.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    // A browser opening /graphql gets the platform's own IDE (gateway/pages), not Apollo's CDN-loaded one.
    plugins: [...(protection.plugins as any[]), requestGuards, ApolloServerPluginLandingPageDisabled()],
    validationRules,
    formatError,
  });
  await server.start();
  if (!apiSchema) throw new Error('The gateway did not load the supergraph');
  if (!config.graphqlOneHop) return { server, apiSchema };
  const prepared = new PreparedGraphQL({
    apiSchema,
    validationRules,
    maxTokens: MAX_TOKENS,
    targetOf: (document, operationName) => oneHop.plannedTarget(document, operationName),
    formatError,
  });
  return { server, apiSchema, oneHop, prepared };
}
