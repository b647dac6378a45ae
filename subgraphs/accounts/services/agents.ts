import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { forbidden, notFound } from '../../../shared/errors.js';
import { UserAccount } from '../entities/user.js';
import { issueApiKey } from './api-keys.js';
import { forgetApiKeyIdentities } from './api-key-identities.js';
import { normalizeEmail, normalizeName } from './email-address.js';
import { mailVerificationLink } from './email-links.js';
import { createEmailToken } from './email-tokens.js';
import { createPersonalOrganization } from './organizations.js';
import { enforceLimit } from './rate-limits.js';
import { assertEmailFree, withUniqueEmail } from './users.js';

export interface AgentRecord {
  id: string;
  name: string | null;
  email: string | null;
  emailVerified: boolean;
  organizationId: string;
  createdAt: Date;
  apiKey?: string;
}

const agentRecord = (user: UserAccount, apiKey?: string): AgentRecord => ({
  id: user.id,
  name: user.name,
  email: user.email,
  emailVerified: user.emailVerified,
  organizationId: user.defaultOrganizationId,
  createdAt: user.createdAt,
  apiKey,
});

/** Self-registration: an agent account, its personal organization and an API key named `agent`, at once. */
export async function registerAgent(context: RequestContext, input: { name?: string | null; email?: string | null }) {
  const name = normalizeName(input.name);
  const email = input.email === undefined || input.email === null || input.email === '' ? null : normalizeEmail(input.email);
  await enforceLimit(context, 'agentPerAddress', context.ip);
  if (email) await assertEmailFree(context.em, email);
  const { user, secret, token } = await withUniqueEmail(() =>
    context.em.transactional(async (em) => {
      const user = em.create(UserAccount, { email, name, kind: 'agent' } as UserAccount);
      const organization = createPersonalOrganization(em, user, name ?? 'Agent');
      const { secret } = issueApiKey(em, user.id, organization.id, 'agent');
      const token = email ? createEmailToken(em, user.id, 'verify_email', email) : null;
      await em.flush();
      await context.services.events.publish('account.created', { userId: user.id, organizationId: organization.id, kind: 'agent' }, em);
      return { user, secret, token };
    }),
  );
  if (email && token) await mailVerificationLink(context.services, email, token, 'agent');
  return { agent: agentRecord(user, secret) };
}

/** A changed address is unverified until its link is followed; the link is mailed at once. */
export async function updateAgent(context: RequestContext, input: { email: string }) {
  const identity = requireIdentity(context);
  const email = normalizeEmail(input.email);
  const user = await context.em.findOne(UserAccount, identity.userId);
  if (!user) throw notFound('Agent');
  if (user.kind !== 'agent') throw forbidden('Only agent accounts are updated here', 'not_an_agent');
  if (user.email === email) return agentRecord(user);
  await assertEmailFree(context.em, email, user.id);
  const token = await withUniqueEmail(() =>
    context.em.transactional(async (em) => {
      const agent = await em.findOneOrFail(UserAccount, user.id);
      agent.email = email;
      agent.emailVerified = false;
      const token = createEmailToken(em, agent.id, 'verify_email', email);
      await em.flush();
      return token;
    }),
  );
  await forgetApiKeyIdentities(context.em, user.id, context.services.log);
  await mailVerificationLink(context.services, email, token, 'agent');
  await context.em.refresh(user);
  return agentRecord(user);
}
