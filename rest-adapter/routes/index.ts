import type { RestRoute } from '../route.js';
import { accountsRoutes } from './accounts.js';
import { databasesRoutes } from './databases.js';
import { walletRoutes } from './wallet.js';
import { marketplaceRoutes } from './marketplace.js';
import { federationRoutes } from './federation.js';
import { evalRoutes } from './eval.js';
import { oauthRoutes } from './oauth.js';

/** Every REST row of the specification that maps onto GraphQL, one table per area. */
export const restRoutes: RestRoute[] = [...accountsRoutes, ...databasesRoutes, ...walletRoutes, ...marketplaceRoutes, ...federationRoutes, ...evalRoutes, ...oauthRoutes];
