import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { logIn, logOut, refreshTokens } from '../services/login.js';
import { changePassword, requestPasswordReset, resetPassword } from '../services/password-changes.js';
import { resendVerification, signUp, verifyEmail } from '../services/signup.js';
import {
  ChangePasswordInput,
  EmailInput,
  LoginInput,
  RefreshTokenInput,
  ResetPasswordInput,
  SignupInput,
  TokenInput,
} from '../types/inputs.js';
import { AuthTokens, LogoutResult, MessageResult, PasswordReset, PasswordUpdated, SignupResult } from '../types/results.js';

@Resolver()
export class AuthResolver {
  @Mutation(() => SignupResult, { description: 'Creates an account and mails a verification link' })
  signup(@Arg('input', () => SignupInput) input: SignupInput, @Ctx() context: RequestContext) {
    return signUp(context, input);
  }

  @Mutation(() => AuthTokens)
  login(@Arg('input', () => LoginInput) input: LoginInput, @Ctx() context: RequestContext) {
    return logIn(context, input);
  }

  @Mutation(() => AuthTokens, { description: 'Rotates the pair; a spent refresh token revokes its whole family' })
  refreshTokens(@Arg('input', () => RefreshTokenInput) input: RefreshTokenInput, @Ctx() context: RequestContext) {
    return refreshTokens(context, input.refreshToken);
  }

  @Mutation(() => LogoutResult, { description: 'Revokes every session of the account' })
  logout(@Ctx() context: RequestContext) {
    return logOut(context);
  }

  @Mutation(() => AuthTokens, { description: 'Spends the e-mailed token, verifies the address and signs in' })
  verifyEmail(@Arg('input', () => TokenInput) input: TokenInput, @Ctx() context: RequestContext) {
    return verifyEmail(context, input.token);
  }

  @Mutation(() => MessageResult)
  resendVerification(@Arg('input', () => EmailInput) input: EmailInput, @Ctx() context: RequestContext) {
    return resendVerification(context, input.email);
  }

  @Mutation(() => MessageResult)
  forgotPassword(@Arg('input', () => EmailInput) input: EmailInput, @Ctx() context: RequestContext) {
    return requestPasswordReset(context, input.email);
  }

  @Mutation(() => PasswordReset)
  resetPassword(@Arg('input', () => ResetPasswordInput) input: ResetPasswordInput, @Ctx() context: RequestContext) {
    return resetPassword(context, input);
  }

  @Mutation(() => PasswordUpdated, { description: 'Needs the current password; revokes the refresh sessions' })
  changePassword(@Arg('input', () => ChangePasswordInput) input: ChangePasswordInput, @Ctx() context: RequestContext) {
    return changePassword(context, input);
  }
}
