import type { SubgraphModule } from '../shared/subgraph.js';
import { accountsSubgraph } from '../subgraphs/accounts/index.js';
import { databasesSubgraph } from '../subgraphs/databases/index.js';
import { walletSubgraph } from '../subgraphs/wallet/index.js';
import { marketplaceSubgraph } from '../subgraphs/marketplace/index.js';
import { federationSubgraph } from '../subgraphs/federation/index.js';
import { evalSubgraph } from '../subgraphs/eval/index.js';
import { oauthSubgraph } from '../subgraphs/oauth/index.js';

/** Every domain of the platform; the supergraph is composed from these. */
export const subgraphModules: SubgraphModule[] = [accountsSubgraph, databasesSubgraph, walletSubgraph, marketplaceSubgraph, federationSubgraph, evalSubgraph, oauthSubgraph];
