import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Credits held for one publisher (on-chain deposits), spent first on its calls' })
export class PrepaidCredit {
  @Field(() => ID)
  publisherId!: string;

  @Field(() => String, { description: 'Decimal string, USD' })
  balance!: string;
}

@ObjectType({ description: "A user's wallet; amounts are decimal strings in USD" })
export class Wallet {
  /** Whose wallet (not exposed: the transactions field reads it). */
  userId!: string;

  @Field(() => String, { description: 'Posted balance' })
  balance!: string;

  @Field(() => String)
  currency!: string;

  @Field(() => String, { description: 'Held by reserves of calls in flight' })
  pending!: string;

  @Field(() => String, { description: 'Balance minus pending: what can be spent now' })
  available!: string;

  @Field(() => [PrepaidCredit])
  prepaidCredits!: PrepaidCredit[];
}

@ObjectType()
export class WalletTransaction {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'deposit, charge, refund, bonus, claim, referral, ...' })
  type!: string;

  @Field(() => String, { description: 'credit (money in) or debit (money out)' })
  direction!: string;

  @Field(() => String, { description: 'Signed decimal string: negative for money out' })
  amount!: string;

  @Field(() => String)
  balanceAfter!: string;

  @Field(() => String, { nullable: true })
  reference!: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  metadata!: Record<string, unknown> | null;

  @Field(() => Date)
  createdAt!: Date;
}

@ObjectType({ description: 'Money credited to the wallet by a claim, bonus or referral' })
export class WalletCredit {
  @Field(() => ID)
  transactionId!: string;

  @Field(() => String)
  type!: string;

  @Field(() => String)
  amount!: string;

  @Field(() => String, { description: 'Wallet balance after the credit' })
  balance!: string;
}

@ObjectType()
export class DailyClaimEligibility {
  @Field(() => Boolean)
  eligible!: boolean;

  @Field(() => String)
  amount!: string;

  @Field(() => Date, { description: 'When the next claim opens (now when eligible): midnight UTC' })
  nextClaimAt!: Date;

  @Field(() => Date, { nullable: true })
  lastClaimedAt!: Date | null;
}

@ObjectType()
export class ReferralSummary {
  @Field(() => String)
  code!: string;

  @Field(() => Int, { description: 'Accounts that applied this code' })
  joined!: number;

  @Field(() => String, { description: 'Referral bonuses earned, decimal string' })
  earned!: string;

  @Field(() => String, { description: 'Bonus each side receives when the referred account verifies its e-mail' })
  bonus!: string;
}

@ObjectType()
export class ReferralApplied {
  @Field(() => Boolean)
  applied!: boolean;

  @Field(() => Boolean, { description: 'True when both bonuses were paid (the e-mail is verified already)' })
  rewarded!: boolean;

  @Field(() => String)
  bonus!: string;
}

@ObjectType({ description: 'Shown once; only a hash is kept' })
export class RecoveryCode {
  @Field(() => String)
  recoveryCode!: string;
}

@ObjectType({ description: 'New credentials after recovery, shown once' })
export class RecoveredAccount {
  @Field(() => ID)
  userId!: string;

  @Field(() => String)
  apiKey!: string;

  @Field(() => String)
  recoveryCode!: string;
}
