import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { readUsageSummary } from '../services/usage-summary.js';
import { UsageSummary } from '../types/results.js';

@Resolver()
export class UsageResolver {
  @Query(() => UsageSummary, { description: 'Usage per day: paid calls per publisher and recorded meters; members and the operator' })
  usageSummary(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('startDate', () => String, { nullable: true }) startDate: string | null,
    @Arg('endDate', () => String, { nullable: true }) endDate: string | null,
    @Ctx() context: RequestContext,
  ) {
    return readUsageSummary(context, organizationId, startDate, endDate);
  }
}
