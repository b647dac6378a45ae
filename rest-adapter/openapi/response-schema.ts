import { Kind, type GraphQLSchema } from 'graphql';
import type { PreparedRoute } from '../router.js';
import { selectionSchema, type JsonSchema } from './json-schema.js';

/** A leaf of a sample value: stands for the schema of what would be there. */
class Leaf {
  constructor(readonly schema: JsonSchema) {}
}

const isObjectSchema = (schema: JsonSchema) => schema.properties && (schema.type === 'object' || schema.type?.[0] === 'object');
const isArraySchema = (schema: JsonSchema) => schema.items && (schema.type === 'array' || schema.type?.[0] === 'array');

function sampleOf(schema: JsonSchema): unknown {
  if (isObjectSchema(schema)) return Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, sampleOf(value as JsonSchema)]));
  if (isArraySchema(schema)) return [sampleOf(schema.items)];
  return new Leaf(schema);
}

function schemaOfSample(sample: unknown): JsonSchema {
  if (sample instanceof Leaf) return sample.schema;
  if (Array.isArray(sample)) return { type: 'array', items: sample.length ? schemaOfSample(sample[0]) : {} };
  if (sample && typeof sample === 'object') {
    return { type: 'object', properties: Object.fromEntries(Object.entries(sample).map(([key, value]) => [key, schemaOfSample(value)])) };
  }
  return {};
}

/** The GraphQL field a row's operation runs. */
export const rootFieldOf = (prepared: PreparedRoute, schema: GraphQLSchema) => {
  const [root] = prepared.operation.selectionSet.selections;
  const rootType = prepared.operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  return root?.kind === Kind.FIELD ? rootType?.getFields()[root.name.value] : undefined;
};

/**
 * The schema of a row's `data`: the root field's selection, renamed to snake_case. A row that
 * reshapes the value (`data`) is run on a sample of that schema, and its answer read back, so the
 * description follows the row's own code.
 */
export function dataSchema(prepared: PreparedRoute, schema: GraphQLSchema): JsonSchema {
  const [root] = prepared.operation.selectionSet.selections;
  const field = rootFieldOf(prepared, schema);
  if (!field || root?.kind !== Kind.FIELD) return {};
  const described = selectionSchema(field.type, root.selectionSet, prepared.fragments);
  if (!prepared.route.data) return described;
  try {
    return schemaOfSample(prepared.route.data(sampleOf(described)));
  } catch {
    return {};
  }
}

