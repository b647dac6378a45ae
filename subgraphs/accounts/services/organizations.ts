import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity, requireUserSession } from '../../../shared/context.js';
import { randomToken, sha256Hex } from '../../../shared/crypto.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../../shared/errors.js';
import { Invitation } from '../entities/invitation.js';
import { Membership, type OrganizationRole } from '../entities/membership.js';
import { Organization } from '../entities/organization.js';
import { UserAccount } from '../entities/user.js';
import { normalizeEmail } from './email-address.js';
import { mailInvitationLink } from './email-links.js';
import { assertTokenFormat } from './email-tokens.js';
import { notify } from './notifications.js';
import { enforceLimit } from './rate-limits.js';
import { isUuid } from '../../../shared/ids.js';

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
const MANAGER_ROLES: OrganizationRole[] = ['owner', 'admin'];

/** Every account gets a personal organization that it owns. */
export function createPersonalOrganization(em: EntityManager, user: UserAccount, label: string): Organization {
  const organization = em.create(Organization, { name: `${label}'s organization`.slice(0, 160), personal: true } as Organization);
  user.defaultOrganizationId = organization.id;
  em.create(Membership, { userId: user.id, organizationId: organization.id, role: 'owner' } as Membership);
  return organization;
}

export async function listOrganizations(context: RequestContext): Promise<Organization[]> {
  const identity = requireIdentity(context);
  const memberships = await context.em.find(Membership, { userId: identity.userId }, { orderBy: { createdAt: 'asc' } });
  if (memberships.length === 0) return [];
  return context.em.find(Organization, { id: { $in: memberships.map((m) => m.organizationId) } }, { orderBy: { createdAt: 'asc' } });
}

export async function roleIn(em: EntityManager, userId: string, organizationId: string): Promise<OrganizationRole | null> {
  if (!isUuid(organizationId)) return null;
  const membership = await em.findOne(Membership, { userId, organizationId });
  return membership?.role ?? null;
}

export async function organizationIdsOf(em: EntityManager, userId: string): Promise<string[]> {
  const memberships = await em.find(Membership, { userId }, { orderBy: { createdAt: 'asc' } });
  return memberships.map((membership) => membership.organizationId);
}

/** The organization if the caller manages it; a non-member gets 404 so membership is not revealed. */
export async function requireManagedOrganization(context: RequestContext, userId: string, organizationId: string) {
  const role = await roleIn(context.em, userId, organizationId);
  if (!role) throw notFound('Organization');
  if (!MANAGER_ROLES.includes(role)) throw forbidden('Only an organization owner or admin can do this', 'organization_admin_required');
  return context.em.findOneOrFail(Organization, organizationId);
}

export async function inviteMember(
  context: RequestContext,
  input: { organizationId?: string | null; email: string; role?: string | null },
): Promise<Invitation> {
  const identity = requireUserSession(context);
  const email = normalizeEmail(input.email);
  const role = (input.role ?? 'member') as OrganizationRole;
  if (role !== 'admin' && role !== 'member') throw badRequest('invalid_role', 'Role must be admin or member');
  const organization = await requireManagedOrganization(context, identity.userId, input.organizationId ?? identity.organizationId);
  // Each invitation mails a stranger a subject the inviter partly chooses: bounded per inviter and per address.
  await enforceLimit(context, 'invitePerInviter', identity.userId);
  await enforceLimit(context, 'invitePerAddress', email);
  const invitee = await context.em.findOne(UserAccount, { email });
  if (invitee && (await roleIn(context.em, invitee.id, organization.id))) {
    throw conflict('already_member', `${email} is already a member of this organization`);
  }
  const token = randomToken(32);
  const invitation = await context.em.transactional(async (em) => {
    const created = em.create(Invitation, {
      organizationId: organization.id,
      email,
      role,
      invitedByUserId: identity.userId,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    } as Invitation);
    if (invitee) {
      notify(em, invitee.id, 'organization.invitation', `Invitation to ${organization.name}`, `You were invited as ${role}.`, {
        organizationId: organization.id,
        invitationId: created.id,
      });
    }
    return created;
  });
  await mailInvitationLink(context.services, email, organization.name, token);
  return invitation;
}

export async function acceptInvitation(context: RequestContext, token: string): Promise<{ organization: Organization; role: string }> {
  const identity = requireIdentity(context);
  assertTokenFormat(token, 'invalid_invite');
  return context.em.transactional(async (em) => {
    const invitation = await em.findOne(Invitation, { tokenHash: sha256Hex(token) });
    if (!invitation) throw new AppError(404, 'invite_not_found', 'Invitation not found');
    if (invitation.acceptedAt) throw badRequest('invite_already_accepted', 'This invitation has already been accepted');
    if (invitation.expiresAt.getTime() <= Date.now()) throw badRequest('invite_expired', 'This invitation has expired');
    if (identity.email !== invitation.email) {
      throw forbidden('This invitation was sent to another e-mail address', 'invite_email_mismatch');
    }
    const accepted = await em.nativeUpdate(
      Invitation,
      { id: invitation.id, acceptedAt: null },
      { acceptedAt: new Date(), acceptedByUserId: identity.userId },
    );
    if (accepted !== 1) throw badRequest('invite_already_accepted', 'This invitation has already been accepted');
    const role = await joinOrganization(em, identity.userId, invitation.organizationId, invitation.role);
    const organization = await em.findOneOrFail(Organization, invitation.organizationId);
    return { organization, role };
  });
}

/**
 * Makes the user a member with `role`, in one statement, so that two invitations accepted at once
 * cannot both insert. A member already there keeps a higher role, and an admin invitation raises
 * a plain member to admin. Returns the role the user now holds.
 */
async function joinOrganization(em: EntityManager, userId: string, organizationId: string, role: OrganizationRole): Promise<OrganizationRole> {
  await em.execute(
    `insert into account_membership (id, user_id, organization_id, role, created_at) values (?, ?, ?, ?, now())
     on conflict (user_id, organization_id) do update set role = excluded.role
     where account_membership.role = 'member' and excluded.role = 'admin'`,
    [randomUUID(), userId, organizationId, role],
  );
  const [membership] = await em.execute<{ role: OrganizationRole }[]>(`select role from account_membership where user_id = ? and organization_id = ?`, [
    userId,
    organizationId,
  ]);
  return membership!.role;
}
