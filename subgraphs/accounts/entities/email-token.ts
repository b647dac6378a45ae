import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type EmailTokenPurpose = 'verify_email' | 'reset_password';

/** Single-use, hashed, expiring tokens delivered by e-mail links. */
@Entity({ tableName: 'account_email_token' })
export class EmailToken {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  userId!: string;

  @Enum({ items: ['verify_email', 'reset_password'], type: 'text' })
  purpose!: EmailTokenPurpose;

  /** The address the link was sent to: verifying proves this address, not a later one. */
  @Property({ type: 'text' })
  email!: string;

  @Property({ type: 'text', unique: true })
  tokenHash!: string;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  usedAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
