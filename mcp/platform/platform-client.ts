import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { outputToRest } from '../../rest-adapter/case.js';

/** A refusal or failure the platform answered, with its stable error code (shown to the agent as a tool error). */
export class PlatformError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/** One GraphQL answer as the transport received it. */
export interface GraphQLAnswer {
  data?: Record<string, unknown> | null;
  errors?: readonly { message?: string; extensions?: Record<string, unknown> }[];
}

/** Runs one operation of the platform's public GraphQL interface as the caller (over HTTP, or in-process at /mcp). */
export type ExecuteOperation = (document: string, variables: Record<string, unknown>) => Promise<GraphQLAnswer>;

/**
 * The tools' only way into the platform: its public operations, as the caller. Answers the root
 * field's value with snake_case keys (as REST shows records; JSON values such as SQL rows are
 * left as they are), or throws a PlatformError carrying the platform's code.
 */
export class PlatformClient {
  constructor(private readonly execute: ExecuteOperation) {}

  async run<T = any>(document: string, variables: Record<string, unknown> = {}): Promise<T> {
    const answer = await this.execute(document, variables);
    if (answer.errors?.length) throw errorOf(answer.errors[0]!);
    const operation = parse(document).definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode;
    const [root] = operation.selectionSet.selections;
    if (!root || root.kind !== Kind.FIELD) throw new Error('An operation must select one root field');
    const key = root.alias?.value ?? root.name.value;
    return outputToRest(answer.data?.[key], root.selectionSet, new Map()) as T;
  }

  /** The raw answer, for introspection. */
  raw(document: string, variables: Record<string, unknown> = {}): Promise<GraphQLAnswer> {
    return this.execute(document, variables);
  }
}

/** The platform's error as a PlatformError with its own code (lower-cased: GraphQL's own codes are upper-case). */
export function errorOf(error: { message?: string; extensions?: Record<string, unknown> }): PlatformError {
  const extensions = error.extensions ?? {};
  const code = typeof extensions.code === 'string' ? extensions.code.toLowerCase() : 'internal_error';
  const details = extensions.details && typeof extensions.details === 'object' ? (extensions.details as Record<string, unknown>) : undefined;
  return new PlatformError(code, String(error.message ?? 'The platform refused the request'), details);
}
