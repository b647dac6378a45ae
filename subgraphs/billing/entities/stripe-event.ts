import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** Stripe events billing has acted on: a second delivery of the same event id does nothing. */
@Entity({ tableName: 'billing_stripe_event' })
export class StripeEventSeen {
  @PrimaryKey({ type: 'text' })
  eventId!: string;

  @Property({ type: 'text' })
  type!: string;

  @Property({ type: 'timestamptz' })
  receivedAt: Date = new Date();
}
