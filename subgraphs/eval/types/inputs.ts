import { Field, Float, InputType } from 'type-graphql';

/** One client signal; every field is checked by the service so an error names the item and the field. */
@InputType()
export class EvalSignalInput {
  @Field(() => String, { nullable: true, description: 'A TaskType value' }) taskType?: string | null;
  @Field(() => String, { nullable: true }) modelId?: string | null;
  @Field(() => String, { nullable: true, description: 'success or failure (or give a score)' }) outcome?: string | null;
  @Field(() => Float, { nullable: true, description: '0..1, instead of an outcome' }) score?: number | null;
  @Field(() => Float, { nullable: true }) latencyMs?: number | null;
  @Field(() => String, { nullable: true, description: 'Decimal string, USD' }) cost?: string | null;
  @Field(() => Float, { nullable: true }) tokens?: number | null;
  @Field(() => String, { nullable: true, description: 'The marketplace publisher that served it, if any' }) publisherSlug?: string | null;
  @Field(() => String, { nullable: true, description: 'The client’s id for it: a replay is counted once' }) signalId?: string | null;
}

@InputType()
export class EvalSignalBatchInput {
  @Field(() => [EvalSignalInput], { description: '1 to 100 signals, stored all or none' }) signals!: EvalSignalInput[];
}
