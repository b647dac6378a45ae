import { randomUUID } from 'node:crypto';
import { Entity, Enum, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Directive, Field, ID, ObjectType } from 'type-graphql';

export type AccountKind = 'user' | 'agent';

@Directive('@key(fields: "id")')
@ObjectType('User', { description: 'A person or a self-registered agent' })
@Entity({ tableName: 'account_user' })
export class UserAccount {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field(() => String, { nullable: true })
  /** Stored lower-cased; agents may have none. Unique when present. */
  @Property({ type: 'text', nullable: true, unique: true })
  email: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  name: string | null = null;

  @Field(() => String, { description: 'user or agent' })
  @Enum({ items: ['user', 'agent'], type: 'text' })
  kind: AccountKind = 'user';

  /** argon2id; null for accounts without password login (agents). */
  @Property({ type: 'text', nullable: true, lazy: true })
  passwordHash: string | null = null;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  emailVerified: boolean = false;

  @Property({ type: 'uuid' })
  defaultOrganizationId!: string;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
