import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** Who referred whom: one row per referred account (the primary key makes "apply once" a database rule). */
@Entity({ tableName: 'wallet_referral' })
export class Referral {
  @PrimaryKey({ type: 'uuid' })
  referredUserId!: string;

  @Index()
  @Property({ type: 'uuid' })
  referrerUserId!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  /** Set when both bonuses are paid (the referred account's e-mail is verified). */
  @Property({ type: 'timestamptz', nullable: true })
  rewardedAt: Date | null = null;
}
