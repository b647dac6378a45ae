import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** One operator run of invoice generation (the health check shows the last). */
@Entity({ tableName: 'billing_invoice_run' })
export class InvoiceRun {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  period!: string;

  @Property({ type: 'integer' })
  created!: number;

  @Property({ type: 'timestamptz' })
  finishedAt: Date = new Date();
}
