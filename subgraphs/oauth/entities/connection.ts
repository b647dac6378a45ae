import { randomUUID } from 'node:crypto';
import { ArrayType } from '@mikro-orm/core';
import { Entity, Enum, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

export type ConnectionStatus = 'active' | 'needs_reauthorization';

/**
 * A user's linked account at a provider. Tokens are sealed (AES-256-GCM); one connection per
 * provider and user is the default (a partial unique index, in the migration).
 */
@Entity({ tableName: 'oauth_connection' })
@Unique({ properties: ['userId', 'providerId', 'accountId'] })
export class OAuthConnection {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  userId!: string;

  @Index()
  @Property({ type: 'uuid' })
  providerId!: string;

  /** The account's id at the provider (`sub`), from the verified ID token or userinfo. */
  @Property({ type: 'text' })
  accountId!: string;

  @Property({ type: 'text' })
  accessTokenSealed!: string;

  @Property({ type: 'text', nullable: true })
  refreshTokenSealed: string | null = null;

  /** When the access token expires; null when the provider did not say. */
  @Property({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null = null;

  @Property({ type: ArrayType })
  scopes: string[] = [];

  @Property({ type: 'boolean' })
  isDefault: boolean = false;

  @Enum({ items: ['active', 'needs_reauthorization'], type: 'text' })
  status: ConnectionStatus = 'active';

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
