import type { RestRequest, RestRoute } from '../route.js';

const connectionId = (request: RestRequest) => ({ connectionId: request.params.connection_id });

/** "OAuth connections" of the specification; the authorize and callback paths answer 302s and are raw routes of the oauth subgraph. */
export const oauthRoutes: RestRoute[] = [
  { method: 'GET', path: '/oauth/providers', document: 'query { oauthProviders { ...OAuthProviderFields } }' },
  { method: 'GET', path: '/oauth/connections', document: 'query { oauthConnections { ...OAuthConnectionFields } }' },
  {
    method: 'DELETE',
    path: '/oauth/connections/:connection_id',
    document: 'mutation($connectionId: ID!) { deleteOAuthConnection(connectionId: $connectionId) { connectionId revoked revokedAtProvider } }',
    variables: connectionId,
  },
  {
    method: 'PUT',
    path: '/oauth/connections/:connection_id/default',
    document: 'mutation($connectionId: ID!) { setDefaultOAuthConnection(connectionId: $connectionId) { ...OAuthConnectionFields } }',
    variables: connectionId,
  },
];
