import { GraphQLJSON } from 'graphql-scalars';
import { Field, InputType, Int } from 'type-graphql';

@InputType()
export class UpsertFederatedResourceInput {
  @Field(() => String, { nullable: true, description: 'Which of the caller’s publishers; required when the organization owns several' })
  publisherSlug?: string | null;
  @Field(() => String) resourceType!: string;
  @Field(() => String) externalId!: string;
  @Field(() => String, { nullable: true, description: 'Default active' }) status?: string | null;
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => GraphQLJSON, { nullable: true, description: 'A JSON document, size-capped' }) data?: unknown;
}

@InputType()
export class FederatedResourceListInput {
  @Field(() => String, { nullable: true }) publisherSlug?: string | null;
  @Field(() => String, { nullable: true }) resourceType?: string | null;
  @Field(() => String, { nullable: true, description: 'Default active' }) status?: string | null;
  @Field(() => Int, { nullable: true, description: '1..100, default 50' }) limit?: number | null;
  @Field(() => Int, { nullable: true }) offset?: number | null;
}

@InputType()
export class FederationHistoryInput {
  @Field(() => String, { nullable: true }) publisherSlug?: string | null;
  @Field(() => String, { nullable: true }) resourceType?: string | null;
  @Field(() => String, { nullable: true }) externalId?: string | null;
  @Field(() => String, { nullable: true, description: 'insert, update or delete' }) operation?: string | null;
  @Field(() => Int, { nullable: true, description: '1..100, default 50' }) limit?: number | null;
  @Field(() => Int, { nullable: true }) offset?: number | null;
}
