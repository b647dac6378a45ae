import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** `usage`: a meter billed (amount due); `info`: what the wallet already paid for (nothing due). */
export type InvoiceLineKind = 'usage' | 'info';

@Entity({ tableName: 'billing_invoice_line' })
export class InvoiceLine {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  invoiceId!: string;

  @Property({ type: 'smallint' })
  position!: number;

  @Property({ type: 'text' })
  kind!: InvoiceLineKind;

  @Property({ type: 'text' })
  description!: string;

  /** The meter (usage) or what the wallet did (info: paid_calls, deposits, credits). */
  @Property({ type: 'text' })
  item!: string;

  @Property({ type: 'uuid', nullable: true })
  publisherId: string | null = null;

  @Property({ type: 'decimal', precision: 30, scale: 9 })
  quantity!: string;

  @Property({ type: 'bigint', nullable: true })
  unitPriceMicros: bigint | null = null;

  /** Micro-dollars: billed for usage lines, shown for information lines. */
  @Property({ type: 'bigint' })
  amountMicros!: bigint;
}
