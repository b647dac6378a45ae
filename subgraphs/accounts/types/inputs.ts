import { Field, ID, InputType } from 'type-graphql';

@InputType()
export class SignupInput {
  @Field(() => String) email!: string;
  @Field(() => String) password!: string;
  @Field(() => String, { nullable: true }) name?: string | null;
}

@InputType()
export class LoginInput {
  @Field(() => String) email!: string;
  @Field(() => String) password!: string;
}

@InputType()
export class RefreshTokenInput {
  /** Optional in the schema: a refresh without a token is 401 (the credential is missing), not a malformed request. */
  @Field(() => String, { nullable: true }) refreshToken?: string | null;
}

@InputType()
export class EmailInput {
  @Field(() => String) email!: string;
}

@InputType()
export class TokenInput {
  @Field(() => String) token!: string;
}

@InputType()
export class ResetPasswordInput {
  @Field(() => String) token!: string;
  @Field(() => String) newPassword!: string;
}

@InputType()
export class ChangePasswordInput {
  @Field(() => String) currentPassword!: string;
  @Field(() => String) newPassword!: string;
}

@InputType()
export class RegisterAgentInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
}

@InputType()
export class CreateApiKeyInput {
  @Field(() => String) name!: string;
  @Field(() => ID, { nullable: true, description: 'Defaults to the caller’s default organization' }) organizationId?: string | null;
}

@InputType()
export class InviteMemberInput {
  @Field(() => ID, { nullable: true, description: 'Defaults to the caller’s default organization' }) organizationId?: string | null;
  @Field(() => String) email!: string;
  @Field(() => String, { nullable: true, description: 'admin or member (default)' }) role?: string | null;
}
