import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** The organization's Stripe customer, created on first use. */
@Entity({ tableName: 'billing_stripe_customer' })
export class StripeCustomer {
  @PrimaryKey({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text', unique: true })
  customerId!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
