import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** The accounts subgraph's User, extended here with its wallet. */
@Directive('@key(fields: "id")')
@ObjectType('User')
export class WalletUser {
  @Field(() => ID)
  id!: string;
}
