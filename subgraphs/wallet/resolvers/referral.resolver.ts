import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { applyReferralCode, readReferral } from '../services/referrals.js';
import { ApplyReferralInput } from '../types/inputs.js';
import { ReferralApplied, ReferralSummary } from '../types/results.js';

@Resolver()
export class ReferralResolver {
  @Query(() => ReferralSummary)
  referral(@Ctx() context: RequestContext) {
    return readReferral(context);
  }

  @Mutation(() => ReferralApplied)
  applyReferralCode(@Arg('input', () => ApplyReferralInput) input: ApplyReferralInput, @Ctx() context: RequestContext) {
    return applyReferralCode(context, input.referralCode);
  }
}
