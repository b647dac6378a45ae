import { Router, type Request, type Response } from 'express';
import type { ApolloServer } from '@apollo/server';
import {
  getNullableType,
  isInputObjectType,
  Kind,
  parse,
  typeFromAST,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { requireIdentity, type RequestContext } from '../shared/context.js';
import { badRequest } from '../shared/errors.js';
import { inputToGraphQL, outputToRest, withSnakeCaseAliases } from './case.js';
import { inputProblemOf, restFieldName } from './input-check.js';
import { errorBodyOf, sendError, type ErrorBody } from '../shared/http/error-response.js';
import { withFragments } from './fragments.js';
import type { PublicAnswerCache } from './answer-cache.js';
import type { RestRoute, RestRequest } from './route.js';

/**
 * Runs a row's operation without the GraphQL server's request pipeline (same checks, same
 * resolvers), where the operation allows it; the gateway supplies it (gateway/one-hop.ts).
 */
export type DirectRun = (variables: Record<string, unknown>, context: RequestContext) => Promise<ExecutionResult>;

export interface DirectRunner {
  runnerFor(apiSchema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): DirectRun | null;
}

export interface RestRouterParts {
  graphql: ApolloServer<RequestContext>;
  apiSchema: GraphQLSchema;
  routes: RestRoute[];
  publicAnswers?: PublicAnswerCache;
  oneHop?: DirectRunner;
}

/** A route with its operation parsed once at start-up. */
export interface PreparedRoute {
  route: RestRoute;
  query: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  fragments: Map<string, FragmentDefinitionNode>;
  variableTypes: Map<string, GraphQLInputType>;
  /**
   * What the row runs on a subgraph directly: the operation with snake_case aliases, whose root
   * field's value is the REST `data` as it is. Through the GraphQL server (whose alias limit is for
   * callers) the row runs as written and its answer is renamed by walking it.
   */
  rest: { document: DocumentNode; operation: OperationDefinitionNode; rootKey: string | null };
}

export function prepareRoute(route: RestRoute, schema: GraphQLSchema): PreparedRoute {
  const query = withFragments(route.document);
  const document: DocumentNode = parse(query);
  const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1) throw new Error(`${route.method} ${route.path}: expected exactly one operation`);
  const operation = operations[0] as OperationDefinitionNode;
  const fragments = new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const variableTypes = new Map<string, GraphQLInputType>();
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type as any) as GraphQLInputType | undefined;
    if (!type) throw new Error(`${route.method} ${route.path}: unknown type for $${definition.variable.name.value}`);
    variableTypes.set(definition.variable.name.value, type);
  }
  // Aliased when the answer is one root field's value (every row): otherwise the row runs as written and its answer is walked.
  const aliased = operation.selectionSet.selections[0]?.kind === Kind.FIELD;
  const restDocument = aliased ? withSnakeCaseAliases(document) : document;
  const restOperation = restDocument.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode;
  const [root] = restOperation.selectionSet.selections;
  const rootKey = aliased ? ((root as FieldNode).alias?.value ?? (root as FieldNode).name.value) : null;
  const rest = { document: restDocument, operation: restOperation, rootKey };
  return { route, query, document, operation, fragments, variableTypes, rest };
}

/** REST variables (snake_case) as the operation expects them (camelCase, per input type; keys it does not declare dropped). */
export function restVariables(prepared: PreparedRoute, request: RestRequest): Record<string, unknown> {
  const raw = prepared.route.variables?.(request) ?? {};
  const variables: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const type = prepared.variableTypes.get(name);
    if (value !== undefined && type) variables[name] = inputToGraphQL(value, type);
  }
  return variables;
}

/**
 * A field's path as the REST caller knows it: an object variable (`input`) is the body itself, so
 * its fields are named alone; any other variable is named after itself.
 */
function restPathOf(prepared: PreparedRoute, path: readonly (string | number)[]): (string | number)[] {
  const [variable, ...rest] = path;
  const type = typeof variable === 'string' ? prepared.variableTypes.get(variable) : undefined;
  return type && isInputObjectType(getNullableType(type)) ? rest : [...path];
}

/** Refuses variables that do not fit the operation, naming the first wrong field in snake_case (400 invalid_input). */
export function checkRestVariables(prepared: PreparedRoute, variables: Record<string, unknown>): void {
  for (const [name, type] of prepared.variableTypes) {
    const problem = inputProblemOf(variables[name], type, restPathOf(prepared, [name]));
    if (problem) throw badRequest('invalid_input', problem.message, { field: restFieldName(problem.path) });
  }
}

/** The root field's value of the row's own operation (already snake_case), shaped by the route. */
function restDataOfRow(prepared: PreparedRoute, data: Record<string, unknown>): unknown {
  if (prepared.rest.rootKey === null) return restData(prepared, data);
  const value = data[prepared.rest.rootKey];
  return prepared.route.data ? prepared.route.data(value) : value;
}

/** The root field's value of the operation as written (camelCase), renamed to snake_case and shaped by the route. */
export function restData(prepared: PreparedRoute, data: Record<string, unknown>): unknown {
  const [root] = prepared.operation.selectionSet.selections;
  if (!root || root.kind !== Kind.FIELD) return data;
  const key = root.alias?.value ?? root.name.value;
  const value = outputToRest(data[key], root.selectionSet, prepared.fragments);
  return prepared.route.data ? prepared.route.data(value) : value;
}

/**
 * A GraphQL error as a REST answer. A variable a subgraph refused (one of its own scalars) names the
 * field by its GraphQL path: the REST caller is told the snake_case field, not GraphQL's message.
 */
function errorOfResult(prepared: PreparedRoute, errors: readonly any[]): ErrorBody {
  const first = errors[0] ?? {};
  const extensions = first.extensions ?? {};
  const field = extensions.details?.variablePath;
  const message = Array.isArray(field)
    ? `${restFieldName(restPathOf(prepared, field)) || 'the request body'} has the wrong type`
    : String(first.message ?? 'Request failed');
  return {
    status: typeof extensions.status === 'number' ? extensions.status : 500,
    code: typeof extensions.code === 'string' ? extensions.code : 'internal_error',
    message,
    details: extensions.details,
  };
}

/** The JSON answer as `res.json` would send it, from a body already serialised. */
function sendJson(res: Response, status: number, body: string): void {
  res.status(status).set('Content-Type', 'application/json').send(body);
}

export function createRestRouter({ graphql, apiSchema, routes, publicAnswers, oneHop }: RestRouterParts): Router {
  const router = Router();
  for (const route of routes) {
    const prepared = prepareRoute(route, apiSchema);
    const direct = oneHop?.runnerFor(apiSchema, prepared.rest.document, prepared.rest.operation) ?? null;
    const run = async (variables: Record<string, unknown>, context: RequestContext): Promise<ExecutionResult> => {
      if (direct) return direct(variables, context);
      const response = await graphql.executeOperation({ query: prepared.query, variables }, { contextValue: context });
      if (response.body.kind !== 'single') throw new Error('Incremental delivery is not used by REST routes');
      return response.body.singleResult as ExecutionResult;
    };
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    // A cached answer is sent before any credential check: only a row answering every caller alike may have one.
    if (route.publicCache && route.auth !== 'optional') throw new Error(`${route.method} ${route.path}: a publicCache row must be auth: 'optional'`);
    const cache = route.publicCache && route.method === 'GET' && publicAnswers?.enabled ? publicAnswers : undefined;
    router[method](route.path, async (req: Request, res: Response) => {
      const context = res.locals.context as RequestContext;
      const cached = cache?.get(req.originalUrl);
      if (cached !== undefined) return sendJson(res, route.status ?? 200, cached);
      const generation = cache?.generation ?? 0;
      try {
        // The credential before the body: a Bearer row called without one (a user's or the operator's) is 401 whatever it sends.
        if (route.auth !== 'optional' && !context.operator) requireIdentity(context);
        const request: RestRequest = { params: req.params as Record<string, string>, query: req.query, body: req.body, headers: req.headers };
        const variables = restVariables(prepared, request);
        checkRestVariables(prepared, variables);
        const { data, errors } = await run(variables, context);
        if (errors?.length) return sendError(res, errorOfResult(prepared, errors));
        const status = route.status ?? 200;
        if (status === 204) return void res.status(204).end();
        const body = JSON.stringify({ data: (direct ? restDataOfRow : restData)(prepared, data ?? {}) });
        cache?.set(req.originalUrl, body, generation);
        sendJson(res, status, body);
      } catch (error) {
        sendError(res, errorBodyOf(error, context.log, context.requestId));
      }
    });
  }
  return router;
}
