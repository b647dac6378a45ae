import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { RoutingPreference, TaskType } from './task-type.js';

@ObjectType()
export class EvalSignalResult {
  @Field(() => Int, { description: 'Signals in the request' }) received!: number;
  @Field(() => Int, { description: 'Signals stored now' }) recorded!: number;
  @Field(() => Int, { description: 'Replays of signal ids already stored (or repeated in the batch), not counted again' }) duplicates!: number;
}

@ObjectType({ description: 'A proportion with its 95% interval' })
export class RateEstimate {
  @Field(() => Float) rate!: number;
  @Field(() => Float) low!: number;
  @Field(() => Float) high!: number;
}

@ObjectType({ description: 'What the signals say about one model on one task type' })
export class EvalCellSummary {
  @Field(() => TaskType) taskType!: TaskType;
  @Field(() => String) modelId!: string;
  @Field(() => GraphQLSafeInt) signals!: number;
  @Field(() => Int, { description: 'Distinct clients (users and agents) that reported' }) clients!: number;
  @Field(() => RateEstimate, { description: 'Mean success with its 95% Wilson interval' }) successRate!: RateEstimate;
  @Field(() => Float, { nullable: true }) meanLatencyMs!: number | null;
  @Field(() => String, { nullable: true, description: 'USD, decimal string' }) meanCost!: string | null;
  @Field(() => Boolean, { description: 'At least EVAL_MIN_SIGNALS signals' }) sufficient!: boolean;
  @Field(() => Date) lastSignalAt!: Date;
}

@ObjectType({ description: 'The model chosen for a task type and a preference, and the rule that chose it' })
export class EvalRecommendation {
  @Field(() => TaskType) taskType!: TaskType;
  @Field(() => RoutingPreference) preference!: RoutingPreference;
  @Field(() => String, { nullable: true }) modelId!: string | null;
  @Field(() => String, { nullable: true, description: 'organization or community: whose signals decided' }) basis!: string | null;
  @Field(() => String) rule!: string;
  @Field(() => EvalCellSummary, { nullable: true, description: 'The evidence: count and interval of the chosen model' }) evidence!: EvalCellSummary | null;
}

@ObjectType()
export class EvalMatrix {
  @Field(() => [EvalCellSummary], { description: 'The caller’s organization’s signals' }) organization!: EvalCellSummary[];
  @Field(() => [EvalCellSummary], { description: 'Every organization’s signals' }) community!: EvalCellSummary[];
  @Field(() => [EvalRecommendation]) recommendations!: EvalRecommendation[];
  @Field(() => Int) minSignals!: number;
}

@ObjectType({ description: 'Beta posterior of a model’s success on a task, pooled over organizations with a per-organization cap' })
export class CommunityPrior {
  @Field(() => TaskType) taskType!: TaskType;
  @Field(() => String) modelId!: string;
  @Field(() => Float) alpha!: number;
  @Field(() => Float) beta!: number;
  @Field(() => Float) mean!: number;
  @Field(() => Float) low!: number;
  @Field(() => Float) high!: number;
  @Field(() => GraphQLSafeInt) signals!: number;
  @Field(() => Int) clients!: number;
  @Field(() => Int) organizations!: number;
  @Field(() => Float, { description: 'Recency-weighted signals, after each organization’s cap' }) effectiveSignals!: number;
  @Field(() => Float) maxPseudoCountPerOrganization!: number;
  @Field(() => Float) halfLifeDays!: number;
  @Field(() => Date, { nullable: true, description: 'The window: first signal' }) windowStart!: Date | null;
  @Field(() => Date, { nullable: true, description: 'The window: latest signal' }) windowEnd!: Date | null;
}
