import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { readWallet } from '../services/balance.js';
import { Wallet } from '../types/results.js';
import { WalletUser } from '../types/wallet-user.js';

@Resolver(() => WalletUser)
export class WalletUserResolver {
  @FieldResolver(() => Wallet, { nullable: true, description: "Only the user's own wallet is visible (null otherwise)" })
  wallet(@Root() user: WalletUser, @Ctx() context: RequestContext) {
    if (context.identity?.userId !== user.id) return null;
    return readWallet(context.em, user.id);
  }
}
