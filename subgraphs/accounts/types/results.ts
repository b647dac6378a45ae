import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ApiKey } from '../entities/api-key.js';
import { Organization } from '../entities/organization.js';
import { UserAccount } from '../entities/user.js';

@ObjectType({ description: 'A signed-in session: a 15-minute access token and a single-use refresh token' })
export class AuthTokens {
  @Field(() => String) accessToken!: string;
  @Field(() => String) refreshToken!: string;
  @Field(() => String) tokenType!: string;
  @Field(() => Int, { description: 'Seconds until the access token expires' }) expiresIn!: number;
  @Field(() => UserAccount) user!: UserAccount;
}

@ObjectType()
export class SignupResult {
  @Field(() => UserAccount) user!: UserAccount;
  @Field(() => Boolean) verificationEmailSent!: boolean;
}

@ObjectType()
export class Agent {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => Boolean) emailVerified!: boolean;
  @Field(() => ID) organizationId!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => String, { nullable: true, description: 'Returned once, at registration' }) apiKey?: string;
}

@ObjectType()
export class AgentRegistration {
  @Field(() => Agent) agent!: Agent;
}

@ObjectType()
export class CreatedApiKey {
  @Field(() => ApiKey) apiKey!: ApiKey;
  @Field(() => String, { description: 'The secret, shown only now' }) key!: string;
}

@ObjectType()
export class AccountSecurity {
  @Field(() => Boolean) hasPassword!: boolean;
  @Field(() => Boolean) emailVerified!: boolean;
  @Field(() => [String]) linkedProviders!: string[];
  @Field(() => Int) activeSessions!: number;
}

@ObjectType()
export class LogoutResult {
  @Field(() => Boolean) loggedOut!: boolean;
  @Field(() => Int) sessionsRevoked!: number;
}

@ObjectType()
export class MessageResult {
  @Field(() => String) message!: string;
}

@ObjectType()
export class PasswordUpdated {
  @Field(() => Boolean) passwordUpdated!: boolean;
  @Field(() => Int) sessionsRevoked!: number;
}

@ObjectType()
export class PasswordReset {
  @Field(() => Boolean) passwordReset!: boolean;
}

@ObjectType()
export class AcceptInviteResult {
  @Field(() => Organization) organization!: Organization;
  @Field(() => String) role!: string;
}
