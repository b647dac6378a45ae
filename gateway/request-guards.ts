import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, getVariableValues, visit, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { RequestContext } from '../shared/context.js';
import { isUnstorableText } from '../shared/text.js';
import { MAX_JSON_DEPTH } from '../shared/http/json-depth.js';

/** Variable errors reported at most: each quotes the value, so an unbounded list grows with its square. */
const MAX_VARIABLE_ERRORS = 10;
const MAX_MESSAGE_LENGTH = 500;

/** Any string (value or key) in a JSON value that PostgreSQL cannot store. Walked without recursion: any depth is safe. */
function holdsUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (isUnstorableText(item)) return true;
    } else if (Array.isArray(item)) {
      // One by one: spreading a list of 150,000 items overflows the stack.
      for (const element of item) pending.push(element);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, nested] of Object.entries(item)) {
        if (isUnstorableText(key)) return true;
        pending.push(nested);
      }
    }
  }
  return false;
}

function documentHoldsUnstorableText(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    StringValue(node) {
      if (isUnstorableText(node.value)) found = true;
    },
  });
  return found;
}

/** How deep the document's literal lists and objects nest (a JSON argument written inline), as the body's JSON is measured. */
function literalDepthOf(document: DocumentNode): number {
  let depth = 0;
  let deepest = 0;
  const enter = () => void (deepest = Math.max(deepest, ++depth));
  const leave = () => void depth--;
  visit(document, { ObjectValue: { enter, leave }, ListValue: { enter, leave } });
  return deepest;
}

interface DocumentFacts {
  literalDepth: number;
  holdsUnstorableText: boolean;
}

/** Parsed documents are reused (Apollo's document store, prepared REST rows): their facts are found once each. */
const documentFacts = new WeakMap<DocumentNode, DocumentFacts>();

function factsOf(document: DocumentNode): DocumentFacts {
  let facts = documentFacts.get(document);
  if (!facts) {
    facts = { literalDepth: literalDepthOf(document), holdsUnstorableText: documentHoldsUnstorableText(document) };
    documentFacts.set(document, facts);
  }
  return facts;
}

/** A request error (the caller's fault): HTTP 400, with the platform's code. */
const refused = (code: string, message: string) =>
  new GraphQLError(message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}…` : message, {
    extensions: { code, status: 400, http: { status: 400 } },
  });

/**
 * The checks of `requestGuards` for one operation about to run; also called by REST rows that run
 * on a subgraph directly (gateway/one-hop.ts), so both paths refuse the same input the same way.
 */
export function guardOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode | undefined,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | undefined,
): void {
  if (!operation) {
    throw refused('invalid_operation', operationName ? `No operation named ${operationName}` : 'Name the operation to run (operationName)');
  }
  if (operation.operation !== 'query' && operation.operation !== 'mutation') {
    throw refused('invalid_operation', `${operation.operation} operations are not supported`);
  }
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: MAX_VARIABLE_ERRORS });
  // The inner reason, without graphql-js's quote of the whole value (a password, say).
  if (coerced.errors) throw refused('invalid_input', coerced.errors[0]!.originalError?.message ?? coerced.errors[0]!.message);
  const facts = factsOf(document);
  if (facts.literalDepth > MAX_JSON_DEPTH) {
    throw refused('json_too_deep', `JSON may nest at most ${MAX_JSON_DEPTH} levels`);
  }
  if (facts.holdsUnstorableText || holdsUnstorableText(variables)) {
    throw refused('invalid_text', 'Text may not contain the NUL character (U+0000) or a lone surrogate');
  }
}

/**
 * A variable only its subgraph could refuse (one of its own scalars) is as much a request error as
 * one the gateway refused: HTTP 400 when nothing ran. Used by the GraphQL server's answers and by
 * the prepared path (gateway/prepared-graphql.ts), so both answer the same status.
 */
export function onlyRefusedVariables(data: unknown, errors: readonly GraphQLFormattedError[] | undefined): boolean {
  return data == null && !!errors?.length && errors.every((error) => (error.extensions?.details as { variablePath?: unknown } | undefined)?.variablePath);
}

/**
 * Checks that run once the operation is known and before the gateway plans it, each answering
 * 400 with a snake_case code:
 * - there is one query or mutation to run (several unnamed ones, an unknown operationName or a
 *   subscription are the caller's error, not the server's);
 * - the variables fit their types, reporting at most a few errors (the gateway's own check lists
 *   every error, each quoting the whole value: quadratic in a body of many unknown keys);
 * - no string, in variables or in the document, holds text PostgreSQL cannot store (U+0000, a lone
 *   surrogate), which would otherwise end as a 500 wherever it is stored or searched.
 */
export const requestGuards: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        const { data, errors } = response.body.singleResult;
        if (onlyRefusedVariables(data, errors)) response.http.status = 400;
      },
      async didResolveOperation({ request, operation, document, schema }) {
        guardOperation(schema, document, operation, request.operationName, request.variables);
      },
    };
  },
};
