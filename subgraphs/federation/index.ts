import type { SubgraphModule } from '../../shared/subgraph.js';
import { buildFederatedSchema } from '../../shared/federation.js';
import { memoize } from '../../shared/memoize.js';
import { federationEntities } from './entities/index.js';
import { federationMigrations } from './migrations/index.js';
import { FederationHistoryResolver } from './resolvers/history.resolver.js';
import { FederatedResourceResolver } from './resolvers/resources.resolver.js';
import { PublisherReference } from './types/publisher-ref.js';

/** Cross-publisher resources and their append-only, hash-chained history. */
export const federationSubgraph: SubgraphModule = {
  name: 'federation',
  tablePrefix: 'fed_',
  entities: federationEntities,
  migrations: federationMigrations,
  buildSchema: memoize(() =>
    buildFederatedSchema({ resolvers: [FederatedResourceResolver, FederationHistoryResolver], orphanedTypes: [PublisherReference] }),
  ),
};
