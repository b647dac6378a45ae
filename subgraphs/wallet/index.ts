import type { SubgraphModule } from '../../shared/subgraph.js';
import { buildFederatedSchema } from '../../shared/federation.js';
import { memoize } from '../../shared/memoize.js';
import { walletEntities } from './entities/index.js';
import { cryptoDepositRoute } from './http/crypto-deposit.js';
import { stripeWebhookRoute } from './http/stripe-webhook.js';
import { walletMigrations } from './migrations/index.js';
import { BalanceResolver } from './resolvers/balance.resolver.js';
import { ClaimsResolver } from './resolvers/claims.resolver.js';
import { DepositResolver } from './resolvers/deposit.resolver.js';
import { DevelopmentCreditsResolver } from './resolvers/development-credits.resolver.js';
import { RecoveryResolver } from './resolvers/recovery.resolver.js';
import { ReferralResolver } from './resolvers/referral.resolver.js';
import { WalletOrganizationResolver } from './resolvers/wallet-organization.resolver.js';
import { WalletOrganization } from './types/wallet-organization.js';
import { WalletUserResolver } from './resolvers/wallet-user.resolver.js';
import { rewardReferral } from './services/referrals.js';
import { WalletUser } from './types/wallet-user.js';

export const walletSubgraph: SubgraphModule = {
  name: 'wallet',
  tablePrefix: 'wallet_',
  entities: walletEntities,
  /** The ledger's and x402's tables (`ledger_*`, `x402_*`, owned by shared/) are created with the wallet's. */
  migrations: walletMigrations,
  buildSchema: memoize(() =>
    buildFederatedSchema(
      {
        resolvers: [BalanceResolver, ClaimsResolver, DevelopmentCreditsResolver, DepositResolver, ReferralResolver, RecoveryResolver, WalletUserResolver, WalletOrganizationResolver],
        orphanedTypes: [WalletUser, WalletOrganization],
      },
      {
        User: (reference: { id: string }) => ({ id: reference.id }),
        Organization: (reference: { id: string }) => ({ id: reference.id }),
      },
    ),
  ),
  httpRoutes(router, services) {
    stripeWebhookRoute(router, services);
    cryptoDepositRoute(router, services);
  },
  connect(services) {
    services.events.on('account.email_verified', async ({ userId }, em) => {
      await rewardReferral(em, userId, services.config.wallet);
    });
  },
};
