import { randomUUID } from 'node:crypto';
import { ArrayType } from '@mikro-orm/core';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * An authorization server users can connect accounts at: a global one (from OAUTH_PROVIDERS,
 * `organizationId` null, kept in step at every start) or one an organization manages. Slugs are
 * unique among global providers and within an organization (partial indexes, in the migration).
 */
@Entity({ tableName: 'oauth_provider' })
export class OAuthProvider {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid', nullable: true })
  organizationId: string | null = null;

  @Property({ type: 'text' })
  slug!: string;

  @Property({ type: 'text' })
  name!: string;

  /** With only an issuer, the endpoints come from its OpenID Connect discovery document. */
  @Property({ type: 'text', nullable: true })
  issuer: string | null = null;

  @Property({ type: 'text', nullable: true })
  authorizeUrl: string | null = null;

  @Property({ type: 'text', nullable: true })
  tokenUrl: string | null = null;

  @Property({ type: 'text', nullable: true })
  userinfoUrl: string | null = null;

  @Property({ type: 'text', nullable: true })
  revokeUrl: string | null = null;

  @Property({ type: 'text' })
  clientId!: string;

  /** Sealed with the platform SecretBox; never returned. */
  @Property({ type: 'text' })
  clientSecretSealed!: string;

  @Property({ type: ArrayType })
  scopes: string[] = [];

  @Property({ type: 'boolean' })
  isActive: boolean = true;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
