import { Field, ID, InputType, Int } from 'type-graphql';

@InputType()
export class CreateProjectInput {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true, description: 'One of DATABASE_REGIONS; the first when omitted' }) region?: string | null;
}

@InputType()
export class CreateBranchInput {
  @Field(() => ID) projectId!: string;
  @Field(() => String) name!: string;
  @Field(() => ID, { nullable: true, description: "The branch to copy; the project's default branch when omitted" }) parentBranchId?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Give the branch its read-write endpoint now (default true); without one its databases refuse connections' })
  withEndpoint?: boolean | null;
}

@InputType()
export class CreateDatabaseInput {
  @Field(() => ID) projectId!: string;
  @Field(() => ID) branchId!: string;
  @Field(() => String) name!: string;
}

@InputType()
export class CreateEndpointInput {
  @Field(() => ID) projectId!: string;
  @Field(() => ID) branchId!: string;
  @Field(() => Int, { nullable: true, description: 'Compute units, 1 to 8 (default 1)' }) autoscalingMin?: number | null;
  @Field(() => Int, { nullable: true, description: 'Compute units, 1 to 8, at least autoscalingMin (default autoscalingMin)' }) autoscalingMax?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'SQL to a suspended endpoint starts it (default true)' }) autoStart?: boolean | null;
}

@InputType()
export class RunSqlInput {
  @Field(() => ID) projectId!: string;
  @Field(() => ID) branchId!: string;
  @Field(() => String) database!: string;
  @Field(() => String) query!: string;
  @Field(() => Boolean, { nullable: true, description: 'Run in a READ ONLY transaction: a write is refused (read_only_query)' }) readOnly?: boolean | null;
}

@InputType()
export class RunSqlTransactionInput {
  @Field(() => ID) projectId!: string;
  @Field(() => ID) branchId!: string;
  @Field(() => String) database!: string;
  @Field(() => [String]) queries!: string[];
  @Field(() => Boolean, { nullable: true }) readOnly?: boolean | null;
}

@InputType()
export class ExplainSqlInput {
  @Field(() => ID) projectId!: string;
  @Field(() => ID) branchId!: string;
  @Field(() => String) database!: string;
  @Field(() => String) query!: string;
  @Field(() => Boolean, { nullable: true, description: 'EXPLAIN ANALYZE: runs the statement, always rolled back' }) analyze?: boolean | null;
}
