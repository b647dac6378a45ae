import { getNamedType, isInputObjectType, type GraphQLInputType } from 'graphql';
import type { PreparedRoute } from '../router.js';

/** What a row reads from a request, found by running its `variables` on a request that records every read. */
export interface RouteInputs {
  pathParams: string[];
  /** Query parameters the row reads, with the GraphQL input type each ends up in (when one can be told). */
  queryParams: { name: string; type?: GraphQLInputType }[];
  /** The variable the JSON body becomes, and the keys the row sets itself (from the path): not the caller's to send. */
  body?: { type: GraphQLInputType; setByRoute: string[] };
}

const BODY = Symbol('request body');

const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());

/** `/a/:id/*rest` -> ['id', 'rest']. */
export const pathParamsOf = (path: string) => [...path.matchAll(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!);

/** A query parameter's type: the variable of its name, else the field of its name in an input object the row fills. */
function queryParamType(prepared: PreparedRoute, name: string): GraphQLInputType | undefined {
  const variableName = camelCase(name);
  const direct = prepared.variableTypes.get(variableName);
  if (direct) return direct;
  for (const type of prepared.variableTypes.values()) {
    const named = getNamedType(type);
    if (isInputObjectType(named) && named.getFields()[variableName]) return named.getFields()[variableName]!.type;
  }
  return undefined;
}

export function probeRoute(prepared: PreparedRoute): RouteInputs {
  const pathParams = pathParamsOf(prepared.route.path);
  const read = new Set<string>();
  const query = new Proxy({} as Record<string, unknown>, {
    get: (_target, key) => {
      if (typeof key === 'string') read.add(key);
      return undefined;
    },
  });
  const params = Object.fromEntries(pathParams.map((name) => [name, name]));
  let variables: Record<string, unknown> = {};
  try {
    variables = prepared.route.variables?.({ params, query, body: { [BODY]: true } }) ?? {};
  } catch {
    // A row that refuses an empty request still told us what it read before refusing.
  }
  const queryParams = [...read].map((name) => ({ name, type: queryParamType(prepared, name) }));
  for (const [name, value] of Object.entries(variables)) {
    if (!value || typeof value !== 'object' || !(BODY in value)) continue;
    const type = prepared.variableTypes.get(name);
    if (type) return { pathParams, queryParams, body: { type, setByRoute: Object.keys(value) } };
  }
  return { pathParams, queryParams };
}
