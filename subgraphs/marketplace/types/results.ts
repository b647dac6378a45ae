import { Field, Float, Int, ObjectType } from 'type-graphql';
import { Publisher } from '../entities/publisher.js';

@ObjectType({ description: 'A publisher ranked for a query, with its score and why it matched' })
export class PublisherSuggestion {
  @Field(() => Publisher) publisher!: Publisher;
  @Field(() => Float, { description: '0..1: text relevance, verification and use' }) score!: number;
  @Field(() => String) matchReason!: string;
}

@ObjectType()
export class EstimateBreakdown {
  @Field(() => String) base!: string;
  @Field(() => String) markup!: string;
  @Field(() => String) gatewayFee!: string;
  @Field(() => Boolean) minimumApplied!: boolean;
}

@ObjectType()
export class CallEstimate {
  @Field(() => String) estimatedCost!: string;
  @Field(() => String) currency!: string;
  @Field(() => EstimateBreakdown) breakdown!: EstimateBreakdown;
  @Field(() => String) pricingModel!: string;
  @Field(() => Int, { nullable: true, description: 'Rows the price is for: for a database query, the planner’s estimate' }) estimatedRows?: number | null;
  @Field(() => String, { nullable: true, description: '`planner_estimate` when the price is of the query planner’s row estimate, not a promise' }) basis?: string | null;
}

@ObjectType()
export class PrepaidWalletOption {
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => String) currency!: string;
}

@ObjectType()
export class CardOption {
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => String) provider!: string;
  @Field(() => String) maxDepositUsd!: string;
}

@ObjectType()
export class X402Scheme {
  @Field(() => String) scheme!: string;
  @Field(() => String, { description: 'x402 v1 network name, e.g. base-sepolia' }) network!: string;
  @Field(() => String, { nullable: true, description: 'CAIP-2 id (x402 v2)' }) networkId!: string | null;
  @Field(() => String, { nullable: true }) asset!: string | null;
  @Field(() => String) assetSymbol!: string;
}

@ObjectType()
export class X402Option {
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => [Int]) versions!: number[];
  @Field(() => [X402Scheme]) schemes!: X402Scheme[];
}

@ObjectType()
export class SupportedPaymentsResult {
  @Field(() => PrepaidWalletOption) prepaidWallet!: PrepaidWalletOption;
  @Field(() => CardOption) card!: CardOption;
  @Field(() => X402Option) x402!: X402Option;
}
