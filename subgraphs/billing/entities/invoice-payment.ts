import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type PaymentStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';

/** A Stripe PaymentIntent made for an invoice, and what became of it. */
@Entity({ tableName: 'billing_invoice_payment' })
export class InvoicePayment {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  invoiceId!: string;

  @Property({ type: 'text', unique: true })
  intentId!: string;

  @Property({ type: 'bigint' })
  amountCents!: bigint;

  @Property({ type: 'text' })
  status: PaymentStatus = 'pending';

  @Property({ type: 'text', nullable: true })
  failureReason: string | null = null;

  /** When the newest Stripe event applied was created: an older one arriving late changes nothing. */
  @Property({ type: 'timestamptz', nullable: true })
  lastEventAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();
}
