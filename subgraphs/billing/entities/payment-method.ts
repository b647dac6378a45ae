import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

/** A Stripe payment method attached to the organization's customer. */
@Entity({ tableName: 'billing_payment_method' })
@Unique({ properties: ['organizationId', 'stripePaymentMethodId'] })
export class PaymentMethod {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  /** Who added it (the wallet's payment-method bonus is theirs). */
  @Index()
  @Property({ type: 'uuid' })
  addedByUserId!: string;

  @Property({ type: 'text' })
  stripePaymentMethodId!: string;

  @Property({ type: 'text' })
  type: string = 'card';

  @Property({ type: 'text', nullable: true })
  brand: string | null = null;

  @Property({ type: 'text', nullable: true })
  last4: string | null = null;

  @Property({ type: 'smallint', nullable: true })
  expMonth: number | null = null;

  @Property({ type: 'smallint', nullable: true })
  expYear: number | null = null;

  @Property({ type: 'boolean' })
  isDefault: boolean = false;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
