import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { closePublisherPayout, createPublisherPayout, readPublisherPayout } from '../services/payouts.js';
import { CreatePayoutInput, MarkPayoutFailedInput, MarkPayoutPaidInput } from '../types/inputs.js';
import { PublisherPayoutInfo } from '../types/results.js';

@Resolver()
export class PayoutResolver {
  @Query(() => PublisherPayoutInfo)
  publisherPayout(@Arg('slug', () => String) slug: string, @Arg('payoutId', () => ID) payoutId: string, @Ctx() context: RequestContext) {
    return readPublisherPayout(context, slug, payoutId);
  }

  @Mutation(() => PublisherPayoutInfo, { description: 'Withdraws available earnings to the publisher’s wallet_address' })
  createPublisherPayout(
    @Arg('slug', () => String) slug: string,
    @Arg('input', () => CreatePayoutInput) input: CreatePayoutInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() context: RequestContext,
  ) {
    return createPublisherPayout(context, slug, input, idempotencyKey);
  }

  @Mutation(() => PublisherPayoutInfo, { description: 'Operator: a pending or processing payout was sent, with its transaction hash' })
  markPublisherPayoutPaid(
    @Arg('slug', () => String) slug: string,
    @Arg('payoutId', () => ID) payoutId: string,
    @Arg('input', () => MarkPayoutPaidInput) input: MarkPayoutPaidInput,
    @Ctx() context: RequestContext,
  ) {
    return closePublisherPayout(context, slug, payoutId, { status: 'paid', txHash: input.txHash });
  }

  @Mutation(() => PublisherPayoutInfo, { description: 'Operator: a pending or processing payout will not be paid; its money is available again' })
  markPublisherPayoutFailed(
    @Arg('slug', () => String) slug: string,
    @Arg('payoutId', () => ID) payoutId: string,
    @Arg('input', () => MarkPayoutFailedInput, { nullable: true }) input: MarkPayoutFailedInput | null,
    @Ctx() context: RequestContext,
  ) {
    return closePublisherPayout(context, slug, payoutId, { status: 'failed', reason: input?.reason?.trim() ?? '' });
  }
}
