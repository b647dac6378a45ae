import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { createPublisherCharge } from '../services/charges.js';
import { readPublisherCharge, readPublisherEarnings } from '../services/publisher-reads.js';
import { refundPublisherCharge } from '../services/refunds.js';
import { slashPublisherCharge } from '../services/slashes.js';
import { CreateChargeInput, RefundChargeInput, SlashChargeInput } from '../types/inputs.js';
import { PublisherChargeInfo, PublisherEarnings } from '../types/results.js';

const KEY = { nullable: true, description: 'Idempotency-Key: the same key replays the first answer' } as const;

@Resolver()
export class PublisherBillingResolver {
  @Query(() => PublisherChargeInfo, { description: 'One of the publisher’s charges: its owners and admins' })
  publisherCharge(@Arg('slug', () => String) slug: string, @Arg('chargeId', () => ID) chargeId: string, @Ctx() context: RequestContext) {
    return readPublisherCharge(context, slug, chargeId);
  }

  @Query(() => PublisherEarnings, { description: 'What the publisher earned and can pay out now' })
  publisherEarnings(@Arg('slug', () => String) slug: string, @Ctx() context: RequestContext) {
    return readPublisherEarnings(context, slug);
  }

  @Mutation(() => PublisherChargeInfo, { description: 'Charges a payer, from credits held with the publisher or within an allowance' })
  createPublisherCharge(
    @Arg('slug', () => String) slug: string,
    @Arg('input', () => CreateChargeInput) input: CreateChargeInput,
    @Arg('idempotencyKey', () => String, KEY) idempotencyKey: string | null,
    @Ctx() context: RequestContext,
  ) {
    return createPublisherCharge(context, slug, input, idempotencyKey);
  }

  @Mutation(() => PublisherChargeInfo, { description: 'Refunds part or all of what remains of a charge' })
  refundPublisherCharge(
    @Arg('slug', () => String) slug: string,
    @Arg('chargeId', () => ID) chargeId: string,
    @Arg('input', () => RefundChargeInput, { nullable: true }) input: RefundChargeInput | null,
    @Arg('idempotencyKey', () => String, KEY) idempotencyKey: string | null,
    @Ctx() context: RequestContext,
  ) {
    return refundPublisherCharge(context, slug, chargeId, input ?? {}, idempotencyKey);
  }

  @Mutation(() => Boolean, { description: 'A penalty from the publisher’s earnings back to the charge’s payer: the operator or the publisher’s owners' })
  slashPublisherCharge(
    @Arg('slug', () => String) slug: string,
    @Arg('chargeId', () => ID) chargeId: string,
    @Arg('input', () => SlashChargeInput) input: SlashChargeInput,
    @Arg('idempotencyKey', () => String, KEY) idempotencyKey: string | null,
    @Ctx() context: RequestContext,
  ) {
    return slashPublisherCharge(context, slug, chargeId, input, idempotencyKey);
  }
}
