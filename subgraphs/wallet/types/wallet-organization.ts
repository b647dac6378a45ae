import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** The accounts' Organization entity, as the wallet subgraph extends it. */
@Directive('@key(fields: "id")')
@ObjectType('Organization')
export class WalletOrganization {
  @Field(() => ID)
  id!: string;
}
