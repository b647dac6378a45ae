import { Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { readBillingHealth } from '../services/health.js';
import { BillingHealth } from '../types/results.js';

@Resolver()
export class BillingHealthResolver {
  @Query(() => BillingHealth, { description: 'Public: database, Stripe and payouts set up or not, last invoice run' })
  billingHealth(@Ctx() context: RequestContext) {
    return readBillingHealth(context);
  }
}
