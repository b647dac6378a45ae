import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { estimateCall } from '../services/estimate-call.js';
import { supportedPayments } from '../services/supported-payments.js';
import { EstimateInput } from '../types/inputs.js';
import { CallEstimate, SupportedPaymentsResult } from '../types/results.js';

@Resolver()
export class EstimateResolver {
  @Query(() => CallEstimate, { description: 'The cost of a call without making it' })
  estimatePublisherCall(@Arg('slug', () => String) slug: string, @Arg('input', () => EstimateInput) input: EstimateInput, @Ctx() context: RequestContext) {
    return estimateCall(context, slug, input);
  }

  @Query(() => SupportedPaymentsResult)
  supportedPayments(@Ctx() context: RequestContext) {
    return supportedPayments(context.services.config);
  }
}
