import type { SubgraphModule } from '../../shared/subgraph.js';
import { buildFederatedSchema } from '../../shared/federation.js';
import { memoize } from '../../shared/memoize.js';
import { oauthEntities } from './entities/index.js';
import { authorizationRoutes } from './http/authorization-routes.js';
import { oauthMigrations } from './migrations/index.js';
import { ConnectionsResolver } from './resolvers/connections.resolver.js';
import { ProvidersResolver } from './resolvers/providers.resolver.js';
import { syncConfiguredProviders } from './services/sync-configured-providers.js';
import { userAccessToken } from './services/user-access-token.js';
import { startOAuthSweeps } from './sweeps.js';

export const oauthSubgraph: SubgraphModule = {
  name: 'oauth',
  tablePrefix: 'oauth_',
  entities: oauthEntities,
  migrations: oauthMigrations,
  buildSchema: memoize(() => buildFederatedSchema({ resolvers: [ProvidersResolver, ConnectionsResolver] })),
  httpRoutes(router, services) {
    authorizationRoutes(router, services);
  },
  startSweeps(services) {
    startOAuthSweeps(services);
  },
  async connect(services) {
    await syncConfiguredProviders(services);
    services.ports.userOAuthToken = (em, userId, providerId) => userAccessToken(services, em, userId, providerId);
  },
};
