import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A user's own referral code, created the first time they ask for it. */
@Entity({ tableName: 'wallet_referral_code' })
export class ReferralCode {
  @PrimaryKey({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'text', unique: true })
  code!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
