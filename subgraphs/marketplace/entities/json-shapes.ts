import { GraphQLJSON } from 'graphql-scalars';
import { Field, InputType, ObjectType } from 'type-graphql';

@ObjectType('UsageExample')
@InputType('UsageExampleInput')
export class UsageExample {
  @Field(() => String) title!: string;
  @Field(() => String) description!: string;
  @Field(() => String) curl!: string;
}

@ObjectType('QueryParam')
@InputType('QueryParamInput')
export class QueryParam {
  @Field(() => String) name!: string;
  @Field(() => String) description!: string;
  @Field(() => Boolean) required!: boolean;
  @Field(() => String, { description: 'integer, boolean, string, number or array' }) paramType!: string;
  @Field(() => GraphQLJSON, { nullable: true }) example?: unknown;
}
