import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A login: the family of refresh tokens rotated from one sign-in. Revoking it ends its access tokens too. */
@Entity({ tableName: 'account_session' })
export class AuthSession {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null = null;

  @Property({ type: 'text', nullable: true })
  revokedReason: string | null = null;
}

@Entity({ tableName: 'account_refresh_token' })
export class RefreshToken {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  sessionId!: string;

  /** SHA-256 of the opaque 256-bit token; the token itself is never stored. */
  @Property({ type: 'text', unique: true })
  tokenHash!: string;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  usedAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
