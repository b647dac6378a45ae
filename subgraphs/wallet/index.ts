import type { SubgraphModule } from '../../shared/subgraph.js';
import { buildFederatedSchema } from '../../shared/federation.js';
import { ledgerMigrations } from '../../shared/ledger/index.js';
import { memoize } from '../../shared/memoize.js';
import { walletEntities } from './entities/index.js';
import { walletMigrations } from './migrations/index.js';
import { BalanceResolver } from './resolvers/balance.resolver.js';
import { ClaimsResolver } from './resolvers/claims.resolver.js';
import { RecoveryResolver } from './resolvers/recovery.resolver.js';
import { ReferralResolver } from './resolvers/referral.resolver.js';
import { WalletUserResolver } from './resolvers/wallet-user.resolver.js';
import { rewardReferral } from './services/referrals.js';
import { WalletUser } from './types/wallet-user.js';

export const walletSubgraph: SubgraphModule = {
  name: 'wallet',
  tablePrefix: 'wallet_',
  entities: walletEntities,
  /** The ledger's tables (`ledger_*`, owned by shared/ledger) are created with the wallet's. */
  migrations: [...ledgerMigrations, ...walletMigrations],
  buildSchema: memoize(() =>
    buildFederatedSchema(
      {
        resolvers: [BalanceResolver, ClaimsResolver, ReferralResolver, RecoveryResolver, WalletUserResolver],
        orphanedTypes: [WalletUser],
      },
      { User: (reference: { id: string }) => ({ id: reference.id }) },
    ),
  ),
  connect(services) {
    services.events.on('account.email_verified', async ({ userId }, em) => {
      await rewardReferral(em, userId, services.config.wallet.referralBonus);
    });
  },
};
