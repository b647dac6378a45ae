import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import { gql } from 'graphql-tag';
import { buildSchema, createResolversMap, type BuildSchemaOptions } from 'type-graphql';

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires"])\n';

/** `{ TypeName: (reference, context) => entity }`: how this subgraph resolves entity references. */
export type ReferenceResolvers = Record<string, (reference: any, context: any) => unknown>;

/**
 * type-graphql classes -> executable schema -> SDL with directives -> Apollo subgraph schema.
 * Entities only reached through `_entities` must be listed in `orphanedTypes`.
 */
export async function buildFederatedSchema(
  options: Omit<BuildSchemaOptions, 'validate'>,
  referenceResolvers: ReferenceResolvers = {},
): Promise<GraphQLSchema> {
  const schema = await buildSchema({ ...options, validate: false });
  const resolvers = createResolversMap(schema) as Record<string, any>;
  for (const [typeName, resolveReference] of Object.entries(referenceResolvers)) {
    resolvers[typeName] = { ...resolvers[typeName], __resolveReference: resolveReference };
  }
  return buildSubgraphSchema([{ typeDefs: gql(FEDERATION_LINK + printSchemaWithDirectives(schema)), resolvers }]);
}
