import { GraphQLJSONObject, GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Whether billing can work: never a secret' })
export class BillingHealth {
  @Field(() => String, { description: 'ok, or degraded when the database cannot be reached' })
  status!: string;

  @Field(() => Boolean)
  database!: boolean;

  @Field(() => Boolean, { description: 'Whether a Stripe secret key is configured (card payments of invoices)' })
  stripeConfigured!: boolean;

  @Field(() => Boolean, { description: 'Whether payouts are sent on chain (else they wait for an operator)' })
  onChainPayouts!: boolean;

  @Field(() => Date, { nullable: true, description: 'When the last invoice generation run finished' })
  lastInvoiceRunAt!: Date | null;
}

@ObjectType({ description: 'One line of an invoice; amounts are decimal strings in USD' })
export class InvoiceLineItem {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'usage (billed) or info (already paid from the wallet, nothing due)' }) kind!: string;
  @Field(() => String) description!: string;
  @Field(() => String, { description: 'The meter, or paid_calls, deposits, credits' }) item!: string;
  @Field(() => ID, { nullable: true }) publisherId!: string | null;
  @Field(() => String) quantity!: string;
  @Field(() => String, { nullable: true }) unitPrice!: string | null;
  @Field(() => String) amount!: string;
  @Field(() => String, { description: 'What this line adds to the amount due' }) amountDue!: string;
}

@ObjectType({ description: 'A monthly invoice of an organization' })
export class InvoiceView {
  @Field(() => ID) id!: string;
  @Field(() => ID) organizationId!: string;
  @Field(() => String, { description: 'YYYY-MM (UTC)' }) period!: string;
  @Field(() => Date) periodStart!: Date;
  @Field(() => Date) periodEnd!: Date;
  @Field(() => String, { description: 'draft, issued, paid, void or uncollectible' }) status!: string;
  @Field(() => String) currency!: string;
  @Field(() => String) total!: string;
  @Field(() => String) amountDue!: string;
  @Field(() => GraphQLSafeInt) amountDueCents!: number;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) issuedAt!: Date | null;
  @Field(() => Date, { nullable: true }) paidAt!: Date | null;
  @Field(() => [InvoiceLineItem]) lineItems!: InvoiceLineItem[];
}

@ObjectType({ description: 'An invoice generation run' })
export class InvoicesGenerated {
  @Field(() => String) period!: string;
  @Field(() => Int, { description: 'Invoices made by this run' }) created!: number;
  @Field(() => Int, { description: 'Invoices of the period, made now or before' }) total!: number;
  @Field(() => [InvoiceSummary]) invoices!: InvoiceSummary[];
}

@ObjectType({ description: 'An invoice without its lines' })
export class InvoiceSummary {
  @Field(() => ID) id!: string;
  @Field(() => ID) organizationId!: string;
  @Field(() => String) status!: string;
  @Field(() => String) amountDue!: string;
}

@ObjectType({ description: 'The invoice after a state change' })
export class InvoiceStatusChange {
  @Field(() => ID) id!: string;
  @Field(() => String) status!: string;
}

@ObjectType({ description: 'A Stripe PaymentIntent for an invoice; confirm it client-side with client_secret' })
export class PaymentIntentCreated {
  @Field(() => ID) id!: string;
  @Field(() => String) status!: string;
  @Field(() => String, { nullable: true }) clientSecret!: string | null;
  @Field(() => GraphQLSafeInt) amountCents!: number;
  @Field(() => ID) invoiceId!: string;
}

@ObjectType({ description: 'A payment attempt of an invoice' })
export class InvoicePaymentRecord {
  @Field(() => ID) id!: string;
  @Field(() => String) intentId!: string;
  @Field(() => GraphQLSafeInt) amountCents!: number;
  @Field(() => String, { description: 'pending, succeeded, failed or canceled' }) status!: string;
  @Field(() => String, { nullable: true }) failureReason!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType({ description: 'A card or other method stored on the organization’s Stripe customer' })
export class PaymentMethodView {
  @Field(() => ID) id!: string;
  @Field(() => String) stripePaymentMethodId!: string;
  @Field(() => String) type!: string;
  @Field(() => String, { nullable: true }) brand!: string | null;
  @Field(() => String, { nullable: true }) last4!: string | null;
  @Field(() => Int, { nullable: true }) expMonth!: number | null;
  @Field(() => Int, { nullable: true }) expYear!: number | null;
  @Field(() => Boolean) isDefault!: boolean;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType({ description: 'Paid calls of one day to one publisher, from the ledger' })
export class PublisherUsageDay {
  @Field(() => String, { description: 'YYYY-MM-DD (UTC)' }) date!: string;
  @Field(() => ID) publisherId!: string;
  @Field(() => GraphQLSafeInt) calls!: number;
  @Field(() => String) amount!: string;
  @Field(() => String) fees!: string;
}

@ObjectType({ description: 'Recorded usage of one meter on one day' })
export class MeterUsageDay {
  @Field(() => String) date!: string;
  @Field(() => String) meter!: string;
  @Field(() => String) quantity!: string;
  @Field(() => String) amount!: string;
}

@ObjectType({ description: 'An organization’s usage over a date range' })
export class UsageSummary {
  @Field(() => ID) organizationId!: string;
  @Field(() => String) startDate!: string;
  @Field(() => String) endDate!: string;
  @Field(() => [PublisherUsageDay]) publishers!: PublisherUsageDay[];
  @Field(() => [MeterUsageDay]) meters!: MeterUsageDay[];
}

@ObjectType({ description: 'A payer’s consent that a publisher may charge their wallet each month' })
export class AllowanceView {
  @Field(() => ID) id!: string;
  @Field(() => ID) publisherId!: string;
  @Field(() => String) publisherSlug!: string;
  @Field(() => String, { description: 'Per calendar month (UTC)' }) monthlyLimit!: string;
  @Field(() => String, { description: 'Charged this month' }) spentThisMonth!: string;
  @Field(() => Date, { nullable: true }) expiresAt!: Date | null;
  @Field(() => Date, { nullable: true }) revokedAt!: Date | null;
  @Field(() => Boolean) active!: boolean;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType({ description: 'A publisher’s charge of a payer' })
export class PublisherChargeInfo {
  @Field(() => ID) id!: string;
  @Field(() => ID) publisherId!: string;
  @Field(() => ID) payerId!: string;
  @Field(() => String) amount!: string;
  @Field(() => String, { description: 'The gateway fee, part of amount' }) fee!: string;
  @Field(() => String) refundedAmount!: string;
  @Field(() => String) slashedAmount!: string;
  @Field(() => String, { description: 'succeeded, partially_refunded or refunded' }) status!: string;
  @Field(() => String, { description: 'credits (held with the publisher) or allowance (the wallet)' }) source!: string;
  @Field(() => String) description!: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata!: Record<string, unknown> | null;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType({ description: 'A publisher’s withdrawal of earnings' })
export class PublisherPayoutInfo {
  @Field(() => ID) id!: string;
  @Field(() => ID) publisherId!: string;
  @Field(() => String) amount!: string;
  @Field(() => String, { description: 'pending, processing, paid or failed' }) status!: string;
  @Field(() => String) walletAddress!: string;
  @Field(() => String, { nullable: true }) networkId!: string | null;
  @Field(() => String, { nullable: true }) asset!: string | null;
  @Field(() => String, { nullable: true }) txHash!: string | null;
  @Field(() => String, { nullable: true }) failureReason!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType({ description: 'A publisher’s earnings: what can be paid out now' })
export class PublisherEarnings {
  @Field(() => ID) publisherId!: string;
  @Field(() => String, { description: 'Posted to the publisher, not yet paid out' }) balance!: string;
  @Field(() => String, { description: 'Held by payouts in flight' }) pendingPayouts!: string;
  @Field(() => String, { description: 'Earned within the hold period (PAYOUT_HOLD_DAYS)' }) onHold!: string;
  @Field(() => String) available!: string;
}
