import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DecimalScalar } from '../types/scalars.js';
import type { PricingTerms } from '../services/pricing.js';

const money = () => ({ type: 'bigint' }) as const;
const optionalMoney = () => ({ type: 'bigint', nullable: true }) as const;

/** What a publisher charges in one accepted asset (spec: "Pricing record"). Amounts in micro-units. */
@ObjectType('Pricing')
@Entity({ tableName: 'market_pricing' })
@Unique({ properties: ['publisherId', 'assetId'] })
export class PublisherPricing implements PricingTerms {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Index() @Property({ type: 'uuid' }) publisherId!: string;

  @Field(() => ID) @Property({ type: 'uuid' }) assetId!: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) assetSymbol: string | null = null;
  @Field(() => String) @Property({ type: 'text' }) pricingModel: 'per_request' | 'per_row' = 'per_request';
  @Field(() => DecimalScalar) @Property(money()) basePricePer1000Rows: bigint = 0n;
  @Field(() => DecimalScalar) @Property(money()) markupMultiplier: bigint = 1_000_000n;
  @Field(() => DecimalScalar) @Property(money()) minCharge: bigint = 0n;
  @Field(() => DecimalScalar, { nullable: true }) @Property(optionalMoney()) unresolvedFallbackCharge: bigint | null = null;
  @Field(() => DecimalScalar, { nullable: true }) @Property(optionalMoney()) reserveMaxCharge: bigint | null = null;
  @Field(() => DecimalScalar, { nullable: true }) @Property(optionalMoney()) pricePerCall: bigint | null = null;
  @Field(() => DecimalScalar, { nullable: true }) @Property(optionalMoney()) pricePerGet: bigint | null = null;
  @Field(() => DecimalScalar, { nullable: true }) @Property(optionalMoney()) pricePerPost: bigint | null = null;
  @Field(() => DecimalScalar, { nullable: true }) @Property(optionalMoney()) pricePerPut: bigint | null = null;
  @Field(() => DecimalScalar, { nullable: true }) @Property(optionalMoney()) pricePerDelete: bigint | null = null;
  @Field(() => DecimalScalar, { nullable: true }) @Property(optionalMoney()) pricePerPatch: bigint | null = null;
  @Field(() => DecimalScalar, { nullable: true }) @Property(optionalMoney()) pricePerExecution: bigint | null = null;
  @Field(() => Int) @Property({ type: 'integer' }) paymentExpiryMinutes: number = 5;
  @Field(() => Boolean) @Property({ type: 'boolean' }) prepaidEnabled: boolean = true;
  @Field(() => Boolean) @Property({ type: 'boolean' }) onchainEnabled: boolean = false;
  @Field(() => DecimalScalar, { nullable: true }) @Property(optionalMoney()) hourlyRate: bigint | null = null;
  @Field(() => DecimalScalar) @Property(money()) minimumBalance: bigint = 0n;
  @Field(() => DecimalScalar) @Property(money()) lowBalanceThreshold: bigint = 0n;
  @Field(() => Int, { nullable: true }) @Property({ type: 'integer', nullable: true }) gracePeriodMinutes: number | null = null;
  @Field(() => Int, { nullable: true }) @Property({ type: 'integer', nullable: true }) maxQueriesPerMinute: number | null = null;
  @Field(() => DecimalScalar, { nullable: true }) @Property(optionalMoney()) minDisplayPrice: bigint | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) pricingDisplayText: string | null = null;
}
