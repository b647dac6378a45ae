import { Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { notFound } from '../../../shared/errors.js';
import { Organization } from '../entities/organization.js';
import { UserAccount } from '../entities/user.js';
import { loadCaller, organizationsById, type UserView } from '../loaders.js';
import { accountSecurity } from '../services/account-security.js';
import { AccountSecurity } from '../types/results.js';

@Resolver(() => UserAccount)
export class UserResolver {
  @Query(() => UserAccount, { description: 'The caller, with their default organization' })
  async me(@Ctx() context: RequestContext) {
    const user = await loadCaller(context, requireIdentity(context).userId);
    if (!user) throw notFound('User');
    return user;
  }

  @Query(() => AccountSecurity)
  accountSecurity(@Ctx() context: RequestContext) {
    return accountSecurity(context);
  }

  /** Shown for its user: its `role` is the user's in every answer (signup, login, verify-email, me), signed in or not yet. */
  @FieldResolver(() => Organization, { nullable: true })
  async defaultOrganization(@Root() user: UserView, @Ctx() context: RequestContext) {
    const organization = await organizationsById(context).load(user.defaultOrganizationId);
    return organization && { ...organization, shownFor: user.id };
  }
}
