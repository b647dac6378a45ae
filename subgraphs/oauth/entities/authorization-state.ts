import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * One authorization in flight: the `state` sent to the provider (kept as a SHA-256 digest), bound
 * to the user, the provider and the redirect, with the PKCE verifier (sealed). Spent by the first
 * callback that presents it; good for 10 minutes.
 */
@Entity({ tableName: 'oauth_authorization_state' })
export class OAuthAuthorizationState {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text', unique: true })
  stateHash!: string;

  @Property({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'uuid' })
  providerId!: string;

  /** Where the user is sent back at the end (one of OAUTH_ALLOWED_REDIRECTS). */
  @Property({ type: 'text' })
  redirectUri!: string;

  /** The platform's callback URL given to the provider (the token request repeats it). */
  @Property({ type: 'text' })
  callbackUri!: string;

  @Property({ type: 'text' })
  codeVerifierSealed!: string;

  /** Sent when the scopes ask for an ID token; the ID token must carry it back. */
  @Property({ type: 'text', nullable: true })
  nonce: string | null = null;

  @Index()
  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  usedAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
