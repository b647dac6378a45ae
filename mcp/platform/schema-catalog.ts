import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { errorOf, PlatformError, type PlatformClient } from './platform-client.js';

/** How deep a record's nested records are selected by default (a project's branches' databases, and no further). */
const DEFAULT_DEPTH = 3;

/**
 * What the platform's public schema offers, read once by introspection. Tools whose part of the
 * platform may not be deployed (the databases subgraph) ask here first, so a missing field is
 * named in a tool error instead of failing as an invalid document, and select every field the
 * platform's record has (whatever it added beyond the contract).
 */
export class SchemaCatalog {
  private schema: Promise<GraphQLSchema> | null = null;

  /** From the platform's own schema (in-process), or read over its public interface. */
  constructor(private readonly source: PlatformClient | GraphQLSchema) {
    if (!('raw' in source)) this.schema = Promise.resolve(source);
  }

  private load(): Promise<GraphQLSchema> {
    // A failed read is not kept: the next tool call asks again (the platform may be back).
    this.schema ??= this.read().catch((error: unknown) => {
      this.schema = null;
      throw error;
    });
    return this.schema;
  }

  private async read(): Promise<GraphQLSchema> {
    const answer = await (this.source as PlatformClient).raw(getIntrospectionQuery({ descriptions: false }));
    if (answer.data) return buildClientSchema(answer.data as unknown as IntrospectionQuery);
    // A refused key is the agent's to know as it is (unauthorized), not as a schema problem.
    throw answer.errors?.[0] ? errorOf(answer.errors[0]) : new PlatformError('platform_error', "The platform's schema could not be read");
  }

  /** The root field, or a tool error naming what the platform lacks. */
  async rootField(kind: 'query' | 'mutation', name: string): Promise<GraphQLField<unknown, unknown>> {
    const schema = await this.load();
    const root = kind === 'query' ? schema.getQueryType() : schema.getMutationType();
    const field = root?.getFields()[name];
    if (!field) {
      throw new PlatformError(
        'not_available',
        `This platform has no ${kind} field ${name} yet (the databases part of the platform is not deployed here); nothing was done`,
      );
    }
    return field;
  }

  /**
   * `{ … }` selecting every field of the root field's type that takes no required argument, or ''
   * for a scalar; records nested `depth` levels deep at most (1: the record's own fields only).
   */
  async selectionOf(kind: 'query' | 'mutation', name: string, depth = DEFAULT_DEPTH): Promise<string> {
    const field = await this.rootField(kind, name);
    return selectionFor(getNamedType(field.type), depth, 0, new Set());
  }
}

function selectionFor(type: GraphQLNamedType, maxDepth: number, depth: number, path: Set<string>): string {
  if (!isObjectType(type)) return '';
  const seen = new Set([...path, type.name]);
  const parts: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)) continue;
    const named = getNamedType(field.type);
    if (!isObjectType(named)) {
      parts.push(field.name);
      continue;
    }
    // A cycle (a branch's project's branches) or a record too deep is left out.
    if (depth + 1 >= maxDepth || seen.has(named.name)) continue;
    const nested = selectionFor(named, maxDepth, depth + 1, seen);
    if (nested) parts.push(`${field.name} ${nested}`);
  }
  return parts.length ? `{ ${parts.join(' ')} }` : '{ __typename }';
}
