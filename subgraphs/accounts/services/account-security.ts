import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { notFound } from '../../../shared/errors.js';
import { AuthSession } from '../entities/session.js';
import { SocialIdentity } from '../entities/social-identity.js';
import { UserAccount } from '../entities/user.js';

export async function accountSecurity(context: RequestContext) {
  const identity = requireIdentity(context);
  const user = await context.em.findOne(UserAccount, identity.userId, { populate: ['passwordHash'] });
  if (!user) throw notFound('User');
  const links = await context.em.find(SocialIdentity, { userId: user.id }, { orderBy: { provider: 'asc' } });
  const activeSessions = await context.em.count(AuthSession, { userId: user.id, revokedAt: null });
  return {
    hasPassword: Boolean(user.passwordHash),
    emailVerified: user.emailVerified,
    linkedProviders: [...new Set(links.map((link) => link.provider))],
    activeSessions,
  };
}
