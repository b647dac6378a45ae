import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { listWalletTransactions, readWallet } from '../services/balance.js';
import { Wallet, WalletTransaction } from '../types/results.js';

@Resolver(() => Wallet)
export class BalanceResolver {
  @Query(() => Wallet, { description: "The caller's wallet" })
  wallet(@Ctx() context: RequestContext) {
    return readWallet(context.em, requireIdentity(context).userId);
  }

  @Query(() => [WalletTransaction], { description: "The caller's wallet movements, newest first" })
  walletTransactions(
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Arg('offset', () => Int, { nullable: true }) offset: number | null,
    @Ctx() context: RequestContext,
  ) {
    return listWalletTransactions(context.em, requireIdentity(context).userId, { limit, offset });
  }

  @FieldResolver(() => [WalletTransaction])
  transactions(
    @Root() wallet: Wallet,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Arg('offset', () => Int, { nullable: true }) offset: number | null,
    @Ctx() context: RequestContext,
  ) {
    return listWalletTransactions(context.em, wallet.userId, { limit, offset });
  }
}
