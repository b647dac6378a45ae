import { Ctx, Mutation, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { grantDevelopmentCredits } from '../services/development-credits.js';
import { WalletCredit } from '../types/results.js';

@Resolver()
export class DevelopmentCreditsResolver {
  @Mutation(() => WalletCredit, {
    description:
      'Test credits (DEV_CREDITS_USD, once per account and UTC day) to try paid calls; an agent needs no verified address. Refused in production (not_available_in_production).',
  })
  grantDevelopmentCredits(@Ctx() context: RequestContext) {
    return grantDevelopmentCredits(context);
  }
}
