import type { SubgraphModule } from '../../shared/subgraph.js';
import { buildFederatedSchema } from '../../shared/federation.js';
import { memoize } from '../../shared/memoize.js';
import { evalEntities } from './entities/index.js';
import { evalMigrations } from './migrations/index.js';
import { EvalResolver } from './resolvers/eval.resolver.js';
import { publisherSuccessRates } from './services/publisher-success.js';

/** Evaluation routing: client signals, incremental aggregates, the matrix and the community prior. */
export const evalSubgraph: SubgraphModule = {
  name: 'eval',
  tablePrefix: 'eval_',
  entities: evalEntities,
  migrations: evalMigrations,
  buildSchema: memoize(() => buildFederatedSchema({ resolvers: [EvalResolver] })),
  connect(services) {
    services.ports.publisherSuccessRates = publisherSuccessRates;
  },
};
