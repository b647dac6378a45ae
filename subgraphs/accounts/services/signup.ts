import type { RequestContext } from '../../../shared/context.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest } from '../../../shared/errors.js';
import { retriedTransaction } from '../../../shared/db/retried-transaction.js';
import { UserAccount } from '../entities/user.js';
import { normalizeEmail, normalizeName } from './email-address.js';
import { forgetApiKeyIdentities } from './api-key-identities.js';
import { mailVerificationLink } from './email-links.js';
import { createEmailToken, spendEmailToken, spendOutstandingEmailTokens } from './email-tokens.js';
import { createPersonalOrganization } from './organizations.js';
import { assertStrongPassword, hashPassword } from './passwords.js';
import { enforceLimit } from './rate-limits.js';
import { runAfterResponse } from './background.js';
import { startSession, type IssuedTokens } from './sessions.js';
import { assertEmailFree, withUniqueEmail } from './users.js';

export async function signUp(context: RequestContext, input: { email: string; password: string; name?: string | null }) {
  const email = normalizeEmail(input.email);
  const name = normalizeName(input.name);
  assertStrongPassword(input.password, email);
  await enforceLimit(context, 'emailPerAddress', context.ip);
  await assertEmailFree(context.em, email);
  const passwordHash = await hashPassword(input.password);
  const { user, token } = await withUniqueEmail(() =>
    context.em.transactional(async (em) => {
      const user = em.create(UserAccount, { email, name, kind: 'user', passwordHash } as UserAccount);
      const organization = createPersonalOrganization(em, user, name ?? email);
      const token = createEmailToken(em, user.id, 'verify_email', email);
      await em.flush();
      await context.services.events.publish('account.created', { userId: user.id, organizationId: organization.id, kind: 'user' }, em);
      return { user, token };
    }),
  );
  await mailVerificationLink(context.services, email, token);
  return { user, verificationEmailSent: true };
}

/** Proves the address the link was sent to, and signs the account in. */
export async function verifyEmail(context: RequestContext, token: string): Promise<IssuedTokens> {
  // The reactions to a verification (a referral reward) lock accounts other verifications share.
  const tokens = await retriedTransaction(context.em as EntityManager, async (em) => {
    const spent = await spendEmailToken(em, token, 'verify_email');
    const user = await em.findOneOrFail(UserAccount, spent.userId);
    if (user.email !== spent.email) {
      throw badRequest('email_changed', 'This link was sent to an address the account no longer uses');
    }
    // The address is proven: other verification links (each one signs in) are spent with this one.
    await spendOutstandingEmailTokens(em, user.id, ['verify_email']);
    if (!user.emailVerified) {
      user.emailVerified = true;
      await em.flush();
      await context.services.events.publish('account.email_verified', { userId: user.id, email: spent.email }, em);
    }
    return startSession(em, context.services.config.secrets.JWT_SECRET, user);
  });
  await forgetApiKeyIdentities(context.em, tokens.user.id, context.services.log);
  return tokens;
}

/** Same answer, at once, whether or not the account exists; the mail (if any) goes out afterwards. */
export async function resendVerification(context: RequestContext, emailInput: string) {
  const email = normalizeEmail(emailInput);
  await enforceLimit(context, 'emailPerAddress', context.ip);
  await enforceLimit(context, 'emailPerAccount', `verify:${email}`);
  runAfterResponse(context, 'resend-verification', async (em) => {
    const user = await em.findOne(UserAccount, { email });
    if (!user || user.emailVerified) return;
    const token = createEmailToken(em, user.id, 'verify_email', email);
    await em.flush();
    await mailVerificationLink(context.services, email, token, user.kind === 'agent' ? 'agent' : 'user');
  });
  return { message: 'If an unverified account exists for this address, a verification link has been sent' };
}
