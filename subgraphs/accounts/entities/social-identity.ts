import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

/** A third-party sign-in linked to an account (shown by account security). */
@Entity({ tableName: 'account_social_identity' })
@Unique({ properties: ['provider', 'subject'] })
export class SocialIdentity {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'text' })
  provider!: string;

  @Property({ type: 'text' })
  subject!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
