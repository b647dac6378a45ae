import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { readWallet } from '../services/balance.js';
import { Wallet } from '../types/results.js';
import { WalletOrganization } from '../types/wallet-organization.js';

@Resolver(() => WalletOrganization)
export class WalletOrganizationResolver {
  @FieldResolver(() => Wallet, {
    nullable: true,
    description: 'Wallets belong to accounts: the wallet of the signed-in member acting in this organization (its own personal one, or the one its API key belongs to); null otherwise',
  })
  wallet(@Root() organization: WalletOrganization, @Ctx() context: RequestContext) {
    if (!context.identity || context.identity.organizationId !== organization.id) return null;
    return readWallet(context.em, context.identity.userId);
  }
}
