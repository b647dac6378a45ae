import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A payer's consent that a publisher may charge their wallet, up to an amount per calendar month (UTC). */
@Entity({ tableName: 'billing_allowance' })
@Index({ properties: ['payerUserId', 'publisherId'] })
export class Allowance {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid' })
  payerUserId!: string;

  @Index()
  @Property({ type: 'uuid' })
  publisherId!: string;

  /** The publisher's slug when it was granted (shown in the payer's list). */
  @Property({ type: 'text' })
  publisherSlug!: string;

  @Property({ type: 'bigint' })
  monthlyLimitMicros!: bigint;

  @Property({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
