import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType('Notification')
@Entity({ tableName: 'account_notification' })
@Index({ properties: ['userId', 'createdAt'] })
export class Notification {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid' })
  userId!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  kind!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  title!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  body: string = '';

  @Field(() => GraphQLJSONObject, { nullable: true })
  @Property({ type: 'json', nullable: true })
  data: Record<string, unknown> | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  readAt: Date | null = null;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
