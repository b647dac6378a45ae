import type { SubgraphModule } from '../../shared/subgraph.js';
import { buildFederatedSchema } from '../../shared/federation.js';
import { memoize } from '../../shared/memoize.js';
import { startPaymentSweeper } from '../../shared/x402/index.js';
import { marketplaceEntities } from './entities/index.js';
import { OrganizationRef } from './entities/organization-stub.js';
import { logoRoutes } from './logo-routes.js';
import { publishersById } from './loaders.js';
import { marketplaceMigrations } from './migrations/index.js';
import { EstimateResolver } from './resolvers/estimate.resolver.js';
import { OrganizationPublishersResolver } from './resolvers/organization.resolver.js';
import { PublisherResolver } from './resolvers/publisher.resolver.js';
import { CallPublisherResolver } from './proxy/graphql/call-publisher.resolver.js';
import { startOrphanedHoldSweeper } from './proxy/orphaned-holds.js';
import { mountPaidProxy } from './proxy/proxy-routes.js';
import { countLateEarnings } from './proxy/usage-counters-of.js';
import { followPublisherChanges } from './services/load-publisher-for-call.js';
import { publisherPayee } from './services/publisher-payee.js';
import { billedPublisher, publisherBySlug, publishersOwnedBy } from './services/publisher-refs.js';
import { seedCatalogue } from './seed/seed-catalogue.js';

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
    logoRoutes(router);
    mountPaidProxy(router, services);
  },
  startSweeps(services) {
    startOrphanedHoldSweeper(services);
    startPaymentSweeper(services);
  },
  async connect(services) {
    countLateEarnings(services);
    followPublisherChanges(services);
    services.ports.publisherPayee = publisherPayee;
    services.ports.publishersOwnedBy = publishersOwnedBy;
    services.ports.publisherBySlug = publisherBySlug;
    services.ports.billedPublisher = billedPublisher;
    if (services.config.nodeEnv === 'development' && services.config.seedCatalogue) {
      // A fresh development start shows a living marketplace; only an empty catalogue is seeded.
      const added = await seedCatalogue(services, { onlyWhenEmpty: true });
      if (added.length > 0) services.log.info({ added: added.length }, 'catalogue seeded');
    }
  },
};
