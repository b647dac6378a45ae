import { Field, ID, InputType } from 'type-graphql';

const opt = { nullable: true } as const;

@InputType()
export class StartOAuthAuthorizationInput {
  @Field(() => ID, { nullable: true, description: 'The provider by id, or by `provider` (slug)' })
  providerId?: string | null;
  @Field(() => String, { nullable: true, description: 'The provider by slug' })
  provider?: string | null;
  @Field(() => String, { description: 'Where the user lands at the end; one of OAUTH_ALLOWED_REDIRECTS' })
  redirectUri!: string;
}

@InputType({ description: "An organization's provider: with `issuer` alone the endpoints come from OpenID Connect discovery" })
export class OAuthProviderInput {
  @Field(() => ID, { nullable: true, description: "Default: the caller's current organization" })
  organizationId?: string | null;
  @Field(() => String) slug!: string;
  @Field(() => String) name!: string;
  @Field(() => String, opt) issuer?: string | null;
  @Field(() => String, opt) authorizeUrl?: string | null;
  @Field(() => String, opt) tokenUrl?: string | null;
  @Field(() => String, opt) userinfoUrl?: string | null;
  @Field(() => String, opt) revokeUrl?: string | null;
  @Field(() => String) clientId!: string;
  @Field(() => String, { description: 'Stored encrypted; never shown again' })
  clientSecret!: string;
  @Field(() => [String], opt) scopes?: string[] | null;
}

@InputType({ description: 'Fields to change; an absent field keeps its value' })
export class OAuthProviderUpdateInput {
  @Field(() => String, opt) slug?: string | null;
  @Field(() => String, opt) name?: string | null;
  @Field(() => String, opt) issuer?: string | null;
  @Field(() => String, opt) authorizeUrl?: string | null;
  @Field(() => String, opt) tokenUrl?: string | null;
  @Field(() => String, opt) userinfoUrl?: string | null;
  @Field(() => String, opt) revokeUrl?: string | null;
  @Field(() => String, opt) clientId?: string | null;
  @Field(() => String, opt) clientSecret?: string | null;
  @Field(() => [String], opt) scopes?: string[] | null;
  @Field(() => Boolean, opt) isActive?: boolean | null;
}
