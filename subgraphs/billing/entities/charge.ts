import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type ChargeStatus = 'succeeded' | 'partially_refunded' | 'refunded';
/** Where the money came from: the payer's credits with the publisher, or their wallet within an allowance. */
export type ChargeSource = 'credits' | 'allowance';

/** A publisher's charge of a payer; refunds and slashes return money to the same payer account. */
@Entity({ tableName: 'billing_charge' })
export class Charge {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  publisherId!: string;

  @Index()
  @Property({ type: 'uuid' })
  payerUserId!: string;

  @Property({ type: 'text' })
  source!: ChargeSource;

  @Index()
  @Property({ type: 'uuid', nullable: true })
  allowanceId: string | null = null;

  /** What the payer paid, micro-dollars; `feeMicros` of it went to the platform. */
  @Property({ type: 'bigint' })
  amountMicros!: bigint;

  @Property({ type: 'bigint' })
  feeMicros!: bigint;

  @Property({ type: 'bigint' })
  refundedMicros: bigint = 0n;

  /** The part of refunds that came back from platform revenue (the fee, in proportion). */
  @Property({ type: 'bigint' })
  refundedFeeMicros: bigint = 0n;

  @Property({ type: 'bigint' })
  slashedMicros: bigint = 0n;

  @Property({ type: 'integer' })
  refundCount: number = 0;

  @Property({ type: 'integer' })
  slashCount: number = 0;

  @Property({ type: 'text' })
  status: ChargeStatus = 'succeeded';

  @Property({ type: 'text' })
  description!: string;

  @Property({ type: 'json', nullable: true })
  metadata: Record<string, unknown> | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
