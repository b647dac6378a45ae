import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

export type InvoiceStatus = 'draft' | 'issued' | 'paid' | 'void' | 'uncollectible';

/** One organization's invoice for one calendar month (unique: generating again creates nothing new). */
@Entity({ tableName: 'billing_invoice' })
@Unique({ properties: ['organizationId', 'period'] })
export class Invoice {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  /** YYYY-MM, UTC. */
  @Property({ type: 'text' })
  period!: string;

  @Property({ type: 'text' })
  status: InvoiceStatus = 'draft';

  /** Sum of the usage lines, micro-dollars. */
  @Property({ type: 'bigint' })
  totalMicros: bigint = 0n;

  /** What the card is charged: the total rounded to the nearest cent. */
  @Property({ type: 'bigint' })
  amountDueCents: bigint = 0n;

  @Property({ type: 'text' })
  currency: string = 'usd';

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  issuedAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  paidAt: Date | null = null;
}
