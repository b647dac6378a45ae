import type { SubgraphModule } from '../../shared/subgraph.js';
import { buildFederatedSchema } from '../../shared/federation.js';
import { memoize } from '../../shared/memoize.js';
import { accountsEntities } from './entities/index.js';
import { usersById, organizationsById } from './loaders.js';
import { accountsMigrations } from './migrations/index.js';
import { AgentResolver } from './resolvers/agent.resolver.js';
import { ApiKeyResolver } from './resolvers/api-key.resolver.js';
import { AuthResolver } from './resolvers/auth.resolver.js';
import { NotificationResolver } from './resolvers/notification.resolver.js';
import { OrganizationResolver } from './resolvers/organization.resolver.js';
import { UserResolver } from './resolvers/user.resolver.js';
import { followApiKeyChanges } from './services/api-key-identities.js';
import { rotateApiKey } from './services/api-key-rotation.js';
import { emailVerifiedNow } from './services/users.js';
import { organizationIdsOf, roleIn } from './services/organizations.js';

export const accountsSubgraph: SubgraphModule = {
  name: 'accounts',
  tablePrefix: 'account_',
  entities: accountsEntities,
  migrations: accountsMigrations,
  buildSchema: memoize(() =>
    buildFederatedSchema(
      { resolvers: [AuthResolver, AgentResolver, UserResolver, OrganizationResolver, ApiKeyResolver, NotificationResolver] },
      {
        User: (reference: { id: string }, context) => usersById(context).load(reference.id),
        Organization: (reference: { id: string }, context) => organizationsById(context).load(reference.id),
      },
    ),
  ),
  connect(services) {
    services.ports.rotateApiKey = rotateApiKey;
    services.ports.emailVerified = emailVerifiedNow;
    services.ports.organizationRole = roleIn;
    services.ports.organizationIdsOf = organizationIdsOf;
    followApiKeyChanges(services);
  },
};
