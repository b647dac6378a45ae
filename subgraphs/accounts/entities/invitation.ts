import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, ID, ObjectType } from 'type-graphql';
import { ORGANIZATION_ROLES, type OrganizationRole } from './membership.js';

@ObjectType('Invitation')
@Entity({ tableName: 'account_invitation' })
export class Invitation {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  email!: string;

  @Field(() => String)
  @Enum({ items: ORGANIZATION_ROLES, type: 'text' })
  role: OrganizationRole = 'member';

  @Property({ type: 'uuid' })
  invitedByUserId!: string;

  @Property({ type: 'text', unique: true })
  tokenHash!: string;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  acceptedAt: Date | null = null;

  @Property({ type: 'uuid', nullable: true })
  acceptedByUserId: string | null = null;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
