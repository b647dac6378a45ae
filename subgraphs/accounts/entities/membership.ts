import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

export type OrganizationRole = 'owner' | 'admin' | 'member';
export const ORGANIZATION_ROLES: OrganizationRole[] = ['owner', 'admin', 'member'];

@Entity({ tableName: 'account_membership' })
@Unique({ properties: ['userId', 'organizationId'] })
export class Membership {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  userId!: string;

  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Enum({ items: ORGANIZATION_ROLES, type: 'text' })
  role: OrganizationRole = 'member';

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
