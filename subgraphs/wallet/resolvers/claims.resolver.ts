import { Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { claimPaymentMethodBonus, claimSignupBonus } from '../services/bonuses.js';
import { claimDaily, readDailyEligibility } from '../services/daily-claim.js';
import { DailyClaimEligibility, WalletCredit } from '../types/results.js';

/** Daily claim and bonuses: each pays once (per UTC day / per account), verified e-mail required. */
@Resolver()
export class ClaimsResolver {
  @Query(() => DailyClaimEligibility)
  dailyClaimEligibility(@Ctx() context: RequestContext) {
    return readDailyEligibility(context);
  }

  @Mutation(() => WalletCredit)
  claimDaily(@Ctx() context: RequestContext) {
    return claimDaily(context);
  }

  @Mutation(() => WalletCredit)
  claimSignupBonus(@Ctx() context: RequestContext) {
    return claimSignupBonus(context);
  }

  @Mutation(() => WalletCredit)
  claimPaymentMethodBonus(@Ctx() context: RequestContext) {
    return claimPaymentMethodBonus(context);
  }
}
