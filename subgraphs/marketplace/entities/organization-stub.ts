import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** The accounts subgraph's Organization, extended here with its publishers. */
@Directive('@key(fields: "id")')
@ObjectType('Organization')
export class OrganizationRef {
  @Field(() => ID) id!: string;
}
