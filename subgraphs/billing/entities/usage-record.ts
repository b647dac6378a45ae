import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** Billable usage recorded through the `recordUsage` port; the unique key makes "never bill twice" a database rule. */
@Entity({ tableName: 'billing_usage_record' })
@Index({ properties: ['occurredAt', 'organizationId'] })
export class UsageRecordRow {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text', unique: true })
  idempotencyKey!: string;

  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  meter!: string;

  /** A decimal quantity in the meter's unit, exact. */
  @Property({ type: 'decimal', precision: 30, scale: 9 })
  quantity!: string;

  @Property({ type: 'bigint' })
  unitPriceMicros!: bigint;

  @Property({ type: 'timestamptz' })
  occurredAt!: Date;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
