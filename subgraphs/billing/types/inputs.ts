import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType } from 'type-graphql';

@InputType()
export class GenerateInvoicesInput {
  @Field(() => String, { nullable: true, description: 'YYYY-MM; default: the last complete calendar month (UTC)' })
  period?: string | null;
}

@InputType()
export class AddPaymentMethodInput {
  @Field(() => String, { nullable: true, description: 'A Stripe payment method id (pm_...)' })
  paymentMethodId?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Make it the only default' })
  setAsDefault?: boolean | null;
}

@InputType()
export class CreateChargeInput {
  @Field(() => String, { nullable: true, description: 'The payer’s user id' })
  payerId?: string | null;

  @Field(() => String, { nullable: true, description: 'Decimal string, USD' })
  amount?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  metadata?: Record<string, unknown> | null;
}

@InputType()
export class RefundChargeInput {
  @Field(() => String, { nullable: true, description: 'Decimal string, USD; default: all that remains' })
  amount?: string | null;

  @Field(() => String, { nullable: true })
  reason?: string | null;
}

@InputType()
export class SlashChargeInput {
  @Field(() => String, { nullable: true, description: 'Decimal string, USD' })
  amount?: string | null;

  @Field(() => String, { nullable: true })
  reason?: string | null;
}

@InputType()
export class CreatePayoutInput {
  @Field(() => String, { nullable: true, description: 'Decimal string, USD' })
  amount?: string | null;
}

@InputType()
export class MarkPayoutPaidInput {
  @Field(() => String, { description: 'The transaction hash of the transfer sent' })
  txHash!: string;
}

@InputType()
export class MarkPayoutFailedInput {
  @Field(() => String, { nullable: true, description: 'Why it will not be paid' })
  reason?: string | null;
}

@InputType()
export class GrantAllowanceInput {
  @Field(() => String)
  publisherSlug!: string;

  @Field(() => String, { description: 'Decimal string, USD per calendar month (UTC)' })
  monthlyLimit!: string;

  @Field(() => Date, { nullable: true })
  expiresAt?: Date | null;
}
