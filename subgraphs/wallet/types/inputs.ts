import { Field, InputType, Int } from 'type-graphql';

@InputType()
export class ApplyReferralInput {
  @Field(() => String)
  referralCode!: string;
}

@InputType()
export class RecoveryRequestInput {
  @Field(() => String)
  email!: string;
}

@InputType()
export class RecoverAccountInput {
  @Field(() => String, { description: '24 uppercase letters and digits' })
  recoveryCode!: string;
}

@InputType()
export class CardDepositInput {
  @Field(() => Int, { description: 'Whole cents, 100 to 10000 (1 to 100 USD)' })
  amountCents!: number;
}
