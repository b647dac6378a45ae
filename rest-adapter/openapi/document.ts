import type { GraphQLSchema } from 'graphql';
import type { RestRoute } from '../route.js';
import { prepareRoute } from '../router.js';
import { inputHasRequiredField, inputSchema, type JsonSchema } from './json-schema.js';
import { pathParamsOf, probeRoute } from './probe-route.js';
import type { RawRoute } from './raw-routes.js';
import { dataSchema, rootFieldOf } from './response-schema.js';

export interface OpenApiSource {
  schema: GraphQLSchema;
  routes: RestRoute[];
  rawRoutes: RawRoute[];
  version: string;
  serverUrl: string;
}

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'Stable snake_case code, e.g. insufficient_balance' },
        message: { type: 'string' },
        details: { type: 'object' },
      },
    },
  },
};

const errorResponse = { description: 'An error: `{"error":{"code","message"}}` with a stable snake_case code', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

/** `/a/:id/*rest` -> `/a/{id}/{rest}`. */
export const openApiPath = (path: string) => path.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

const tagOf = (path: string) => path.split('/')[1] || 'platform';

const pathParameters = (path: string) =>
  pathParamsOf(path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));

function restOperation(route: RestRoute, source: OpenApiSource, components: Record<string, JsonSchema>, operationIds: Set<string>) {
  const prepared = prepareRoute(route, source.schema);
  const inputs = probeRoute(prepared);
  const field = rootFieldOf(prepared, source.schema);
  let operationId = field?.name ?? `${route.method.toLowerCase()}${route.path}`;
  for (let n = 2; operationIds.has(operationId); n++) operationId = `${field?.name}${n}`;
  operationIds.add(operationId);
  const status = String(route.status ?? 200);
  const operation: JsonSchema = {
    operationId,
    tags: [tagOf(route.path)],
    // The row's own rule: a credential unless it says `optional` (then anonymous callers are answered too).
    security: route.auth === 'optional' ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }],
    summary: field?.description ?? `${route.method} ${route.path}`,
    description: `Runs the GraphQL ${prepared.operation.operation} \`${field?.name}\` (also at /graphql).`,
    parameters: [
      ...pathParameters(route.path),
      ...inputs.queryParams.map(({ name, type }) => ({
        name,
        in: 'query',
        required: false,
        schema: type ? stripNull(inputSchema(type, components)) : { type: 'string' },
      })),
    ],
    responses: {
      [status]:
        status === '204'
          ? { description: 'Done' }
          : {
              description: 'Success',
              content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: dataSchema(prepared, source.schema) } } } },
            },
      default: errorResponse,
    },
  };
  if (inputs.body) operation.requestBody = requestBody(inputs.body.type, inputs.body.setByRoute, components);
  return operation;
}

/** A query parameter is absent rather than null. */
function stripNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type)) return { ...schema, type: schema.type[0] };
  return schema.anyOf ? schema.anyOf[0] : schema;
}

function requestBody(type: any, setByRoute: string[], components: Record<string, JsonSchema>) {
  let schema = stripNull(inputSchema(type, components));
  if (setByRoute.length > 0 && schema.$ref) {
    // Keys the row fills from the path are not the caller's to send.
    const named = components[schema.$ref.split('/').pop()];
    const properties = Object.fromEntries(Object.entries(named.properties ?? {}).filter(([key]) => !setByRoute.includes(key)));
    const required = (named.required ?? []).filter((key: string) => !setByRoute.includes(key));
    schema = { type: 'object', properties, ...(required.length ? { required } : {}) };
  }
  return { required: inputHasRequiredField(type), content: { 'application/json': { schema } } };
}

function rawOperation(route: RawRoute) {
  return {
    operationId: `${route.method.toLowerCase()}${openApiPath(route.path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, next: string | undefined) => (next ?? '').toUpperCase())}`,
    tags: [tagOf(route.path)],
    summary: `${route.method} ${route.path}`,
    description: 'A raw route (bytes, a stream or a signed webhook): not a GraphQL operation; its body and answer are described in the README.',
    parameters: pathParameters(route.path),
    responses: { '200': { description: 'Success' }, default: errorResponse },
  };
}

/**
 * OpenAPI 3.1 for every REST row and raw route, derived from the rows' GraphQL operations and
 * types: the description cannot drift from what the adapter runs.
 */
export function openApiDocument(source: OpenApiSource): JsonSchema {
  const components: Record<string, JsonSchema> = { Error: ERROR_SCHEMA };
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const operationIds = new Set<string>();
  const add = (method: string, path: string, operation: JsonSchema) => {
    const item = (paths[openApiPath(path)] ??= {});
    item[method.toLowerCase()] ??= operation;
  };
  for (const route of source.routes) add(route.method, route.path, restOperation(route, source, components, operationIds));
  for (const route of source.rawRoutes) add(route.method, route.path, rawOperation(route));
  for (const [path, status] of [['/healthz', 'ok'], ['/readyz', 'ready']] as const) {
    add('GET', path, {
      operationId: path.slice(1),
      tags: ['platform'],
      summary: status === 'ok' ? 'Answers while the process lives' : 'Answers 200 only when the database does',
      responses: { '200': { description: status, content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'object', properties: { status: { const: status } } } } } } } }, default: errorResponse },
    });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Agent commerce platform REST API',
      version: source.version,
      description: 'Every REST path runs one GraphQL operation (GraphQL at /graphql). Answers are `{"data": ...}` with snake_case keys; errors `{"error":{"code","message"}}`.',
    },
    servers: [{ url: source.serverUrl }],
    security: [{ bearerAuth: [] }, {}],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: components,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (ak_...) or an access token' } },
    },
  };
}
