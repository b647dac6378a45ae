import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('ApiKey', { description: 'An API key; the secret itself is shown only when created' })
@Entity({ tableName: 'account_api_key' })
export class ApiKey {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  /** The account the key acts as. */
  @Index()
  @Property({ type: 'uuid' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  name!: string;

  @Field(() => String)
  /** The first characters of the key, enough to recognise it in a list. */
  @Property({ type: 'text' })
  prefix!: string;

  @Property({ type: 'text', unique: true })
  keyHash!: string;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null = null;
}
