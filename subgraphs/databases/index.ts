import type { SubgraphModule } from '../../shared/subgraph.js';
import { buildFederatedSchema } from '../../shared/federation.js';
import { memoize } from '../../shared/memoize.js';
import { DatabaseBranch } from './entities/branch.js';
import { ManagedDatabase } from './entities/database.js';
import { DatabaseProject } from './entities/project.js';
import { ComputeEndpoint, EndpointRun } from './entities/endpoint.js';
import { databasesMigrations } from './migrations/index.js';
import { startDatabaseSweeps } from './sweeps.js';
import { publishedQueryPorts } from './services/published-queries.js';
import { sampleDatabase } from './services/sample-database.js';
import { DatabasesResolver } from './resolvers/databases.resolver.js';
import { BranchResolver } from './resolvers/branch.resolver.js';
import { EndpointResolver } from './resolvers/endpoint.resolver.js';
import { ProjectResolver } from './resolvers/project.resolver.js';
import { SqlResolver } from './resolvers/sql.resolver.js';

export const databasesSubgraph: SubgraphModule = {
  name: 'databases',
  tablePrefix: 'db_',
  entities: [DatabaseProject, DatabaseBranch, ManagedDatabase, ComputeEndpoint, EndpointRun],
  migrations: databasesMigrations,
  buildSchema: memoize(() => buildFederatedSchema({ resolvers: [DatabasesResolver, ProjectResolver, BranchResolver, EndpointResolver, SqlResolver] })),
  connect(services) {
    Object.assign(services.ports, publishedQueryPorts(services));
    services.ports.sampleDatabase = (em, organizationId) => sampleDatabase(services, em, organizationId);
  },
  startSweeps(services) {
    startDatabaseSweeps(services);
  },
};
