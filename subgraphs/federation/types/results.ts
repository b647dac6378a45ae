import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import { PublisherReference } from './publisher-ref.js';

@ObjectType()
export class CountByKey {
  @Field(() => String) key!: string;
  @Field(() => GraphQLSafeInt) count!: number;
}

@ObjectType()
export class CountByPublisher {
  @Field(() => PublisherReference, { nullable: true }) publisher!: PublisherReference | null;
  @Field(() => GraphQLSafeInt) count!: number;
}

@ObjectType({ description: 'Federated resources counted by publisher, type and status' })
export class FederationStats {
  @Field(() => GraphQLSafeInt) total!: number;
  @Field(() => [CountByPublisher]) byPublisher!: CountByPublisher[];
  @Field(() => [CountByKey]) byResourceType!: CountByKey[];
  @Field(() => [CountByKey]) byStatus!: CountByKey[];
  @Field(() => Date, { nullable: true, description: 'When a counted resource last changed' }) lastChangeAt!: Date | null;
}

@ObjectType({ description: 'History entries counted by publisher, type and operation' })
export class FederationHistoryStats {
  @Field(() => GraphQLSafeInt) total!: number;
  @Field(() => [CountByPublisher]) byPublisher!: CountByPublisher[];
  @Field(() => [CountByKey]) byResourceType!: CountByKey[];
  @Field(() => [CountByKey]) byOperation!: CountByKey[];
  @Field(() => Date, { nullable: true }) lastChangeAt!: Date | null;
}

@ObjectType({ description: 'A publisher’s history chain recomputed from its first entry' })
export class HistoryChainVerification {
  @Field(() => PublisherReference) publisher!: PublisherReference;
  @Field(() => Boolean) intact!: boolean;
  @Field(() => GraphQLSafeInt, { description: 'Entries found intact, from sequence 1' }) entries!: number;
  @Field(() => GraphQLSafeInt, { description: 'The sequence the chain should end at' }) lastSequence!: number;
  @Field(() => GraphQLSafeInt, { nullable: true, description: 'The first sequence whose entry is missing, altered or out of chain' })
  firstBrokenSequence!: number | null;
}
