import type { SubgraphModule } from '../../shared/subgraph.js';
import { buildFederatedSchema } from '../../shared/federation.js';
import { memoize } from '../../shared/memoize.js';
import { marketplaceEntities } from './entities/index.js';
import { OrganizationRef } from './entities/organization-stub.js';
import { publishersById } from './loaders.js';
import { marketplaceMigrations } from './migrations/index.js';
import { EstimateResolver } from './resolvers/estimate.resolver.js';
import { OrganizationPublishersResolver } from './resolvers/organization.resolver.js';
import { PublisherResolver } from './resolvers/publisher.resolver.js';
import { CallPublisherResolver } from './proxy/graphql/call-publisher.resolver.js';
import { mountPaidProxy } from './proxy/proxy-routes.js';
import { publisherPayee } from './services/publisher-payee.js';

export const marketplaceSubgraph: SubgraphModule = {
  name: 'marketplace',
  tablePrefix: 'market_',
  entities: marketplaceEntities,
  migrations: marketplaceMigrations,
  buildSchema: memoize(() =>
    buildFederatedSchema(
      { resolvers: [PublisherResolver, EstimateResolver, OrganizationPublishersResolver, CallPublisherResolver], orphanedTypes: [OrganizationRef] },
      {
        Publisher: (reference: { id: string }, context) => publishersById(context).load(reference.id),
        Organization: (reference: { id: string }) => Object.assign(new OrganizationRef(), { id: reference.id }),
      },
    ),
  ),
  httpRoutes(router, services) {
    mountPaidProxy(router, services);
  },
  connect(services) {
    services.ports.publisherPayee = publisherPayee;
  },
};
