import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('OAuthProvider', { description: 'An account provider users can connect to; its client secret is never shown' })
export class OAuthProviderView {
  @Field(() => ID) id!: string;
  @Field(() => String) slug!: string;
  @Field(() => String) name!: string;
  @Field(() => [String]) scopes!: string[];
  @Field(() => ID, { nullable: true, description: 'The organization that manages it; null for a global provider' })
  organizationId!: string | null;
  @Field(() => Boolean) isActive!: boolean;
  @Field(() => Boolean, { description: 'Whether the caller has a connection to it' })
  connected!: boolean;
  @Field(() => String, { description: 'The redirect URI to register with the provider: $PUBLIC_URL/oauth/{slug}/callback' })
  callbackUrl!: string;
  @Field(() => String, { nullable: true }) issuer!: string | null;
  @Field(() => String, { nullable: true }) authorizeUrl!: string | null;
  @Field(() => String, { nullable: true }) tokenUrl!: string | null;
  @Field(() => String, { nullable: true }) userinfoUrl!: string | null;
  @Field(() => String, { nullable: true }) revokeUrl!: string | null;
  @Field(() => String) clientId!: string;
}

@ObjectType('OAuthConnection', { description: 'A linked third-party account; its tokens are never shown' })
export class OAuthConnectionView {
  @Field(() => ID) id!: string;
  @Field(() => ID) providerId!: string;
  @Field(() => String) providerSlug!: string;
  @Field(() => String) providerName!: string;
  @Field(() => String, { description: "The account's id at the provider" })
  accountId!: string;
  @Field(() => [String]) scopes!: string[];
  @Field(() => Boolean, { description: "Its provider's default connection (the one passed to publishers)" })
  isDefault!: boolean;
  @Field(() => String, { description: '`active`, or `needs_reauthorization` after the provider refused a refresh' })
  status!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When the current access token expires' })
  expiresAt!: Date | null;
}

@ObjectType({ description: 'Send the user to `authorizationUrl`; the provider sends them back to the platform, then to the redirect' })
export class OAuthAuthorization {
  @Field(() => String) authorizationUrl!: string;
  @Field(() => Date, { description: 'The authorization must finish before this (10 minutes)' })
  expiresAt!: Date;
}

@ObjectType()
export class OAuthConnectionDeleted {
  @Field(() => ID) connectionId!: string;
  @Field(() => Boolean) revoked!: boolean;
  @Field(() => Boolean, { description: 'Whether the provider confirmed revoking the token (false: it has no revocation endpoint or could not be reached)' })
  revokedAtProvider!: boolean;
}
