import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import { gql } from 'graphql-tag';
import { buildSchema, createResolversMap, getMetadataStorage, type BuildSchemaOptions } from 'type-graphql';

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
  if (!options.globalMiddlewares?.length && !options.authChecker) leavePlainFieldsToDefaultResolver(resolvers);
  for (const [typeName, resolveReference] of Object.entries(referenceResolvers)) {
    resolvers[typeName] = { ...resolvers[typeName], __resolveReference: resolveReference };
  }
  return buildSubgraphSchema([{ typeDefs: gql(FEDERATION_LINK + printSchemaWithDirectives(schema)), resolvers }]);
}

/**
 * type-graphql gives every plain field a resolver of its own (a hook for middlewares and auth
 * checks, which this platform does not use): an allocation and a call per field of every record,
 * and no direct property read for compiled execution. A field read straight from its property (no
 * resolver method, middleware, role or other property name) in every class of its type is left to
 * GraphQL's default resolver, which reads that same property.
 */
function leavePlainFieldsToDefaultResolver(resolvers: Record<string, any>): void {
  const storage = getMetadataStorage();
  const computed = new Set(storage.fieldResolvers.map((resolver) => `${resolver.target?.name}.${resolver.methodName}`));
  const keep = new Set<string>();
  const plain = new Set<string>();
  for (const objectType of [...storage.objectTypes, ...storage.interfaceTypes]) {
    for (const field of objectType.fields ?? []) {
      const key = `${objectType.name}.${field.schemaName}`;
      const isPlain =
        field.name === field.schemaName &&
        !field.middlewares?.length &&
        !field.roles?.length &&
        !storage.fieldResolvers.some((resolver) => resolver.methodName === field.name && resolver.getObjectType?.() === field.target) &&
        !computed.has(`${field.target.name}.${field.name}`);
      (isPlain ? plain : keep).add(key);
    }
  }
  for (const key of plain) {
    if (keep.has(key)) continue;
    const [typeName, fieldName] = key.split('.') as [string, string];
    if (resolvers[typeName] && typeof resolvers[typeName][fieldName] === 'function') delete resolvers[typeName][fieldName];
  }
}
