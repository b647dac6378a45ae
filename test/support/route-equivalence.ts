import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { GraphQLSchema } from 'graphql';
import { restRoutes } from '../../rest-adapter/routes/index.js';
import { prepareRoute, restData, restVariables, type PreparedRoute } from '../../rest-adapter/router.js';
import type { RestRequest, RestRoute } from '../../rest-adapter/route.js';
import { registerAgent, signUpVerified, type Platformish } from './accounts.js';

/** A platform to compare REST and GraphQL on: in one process, or split into processes. */
export interface EquivalenceTarget extends Platformish {
  apiSchema: GraphQLSchema;
}

/** Path parameters: the caller's default organization, else an id that exists nowhere. */
function requestFor(route: RestRoute): RestRequest {
  const params: Record<string, string> = {};
  for (const [, name] of route.path.matchAll(/:([a-z_]+)/g)) params[name!] = name === 'organization_id' ? 'default' : randomUUID();
  return { params, query: {}, body: {}, headers: {} };
}

const pathOf = (route: RestRoute, request: RestRequest) => route.path.replace(/:([a-z_]+)/g, (_m, name) => request.params[name]!);

/** Values that differ between two runs of the same mutation (ids, secrets, times) compare by shape. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  return value === null ? null : typeof value;
}

async function callers(t: Platformish) {
  const user = await signUpVerified(t);
  const agent = await registerAgent(t, { name: 'equivalence' });
  return [
    { name: 'anonymous', token: undefined },
    { name: 'user', token: user.accessToken },
    { name: 'agent', token: agent.api_key },
  ];
}

/** Every REST row, called as anonymous, a user and an agent, answers what its GraphQL operation answers. */
export function describeRouteEquivalence(target: () => EquivalenceTarget) {
  describe('every REST route answers what its GraphQL operation answers', () => {
    const cases = restRoutes.map((route) => [`${route.method} ${route.path}`, route] as const);

    it.each(cases)('%s', async (_name, route) => {
      const t = target();
      const prepared: PreparedRoute = prepareRoute(route, t.apiSchema);
      const reads = route.method === 'GET';
      const restCallers = await callers(t);
      // A write may change what the same caller can do next (logout, revoke): GraphQL gets its own callers.
      const graphqlCallers = reads ? restCallers : await callers(t);
      for (const [index, caller] of restCallers.entries()) {
        const request = requestFor(route);
        const body = reads || route.method === 'DELETE' ? undefined : request.body;
        const rest = await t.api.request(route.method, pathOf(route, request), body, { token: caller.token });
        const graphql = await t.api.graphql(prepared.query, restVariables(prepared, request), { token: graphqlCallers[index]!.token });
        const label = `${caller.name}: REST ${rest.status} ${JSON.stringify(rest.body)} / GraphQL ${JSON.stringify(graphql.body)}`;
        const graphqlError = graphql.body.errors?.[0]?.extensions;
        if (rest.status === 401 && !caller.token && route.auth !== 'optional' && graphqlError?.code === 'invalid_input') {
          // A Bearer row checks the credential before the body; GraphQL checks its variables first.
          expect(graphqlError.status).toBe(400);
        } else if (rest.status >= 400) {
          expect({ label, ...graphqlError }).toMatchObject({ label, code: rest.body.error.code, status: rest.status });
        } else {
          expect(graphql.body.errors).toBeUndefined();
          const fromGraphQL = restData(prepared, graphql.body.data!);
          if (reads) expect(rest.body.data).toEqual(fromGraphQL);
          else expect(shape(rest.body.data ?? null)).toEqual(shape(route.status === 204 ? null : fromGraphQL));
        }
      }
    });
  });
}
