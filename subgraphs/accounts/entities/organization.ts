import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Directive, Field, ID, ObjectType } from 'type-graphql';

@Directive('@key(fields: "id")')
@ObjectType('Organization')
@Entity({ tableName: 'account_organization' })
export class Organization {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field(() => String)
  @Property({ type: 'text' })
  name!: string;

  @Field(() => Boolean)
  /** A personal organization is created with every account and holds its API keys. */
  @Property({ type: 'boolean' })
  personal: boolean = false;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
