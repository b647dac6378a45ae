import DataLoader from 'dataloader';
import { loader, type RequestContext } from '../../shared/context.js';
import { Membership } from './entities/membership.js';
import { Organization } from './entities/organization.js';
import { UserAccount } from './entities/user.js';

const byId = <T extends { id: string }>(rows: T[], ids: readonly string[]) => {
  const map = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => map.get(id) ?? null);
};

export const usersById = (context: RequestContext) =>
  loader(context, 'accounts.usersById', () =>
    new DataLoader<string, UserAccount | null>(async (ids) => byId(await context.em.find(UserAccount, { id: { $in: [...ids] } }), ids)),
  );

export const organizationsById = (context: RequestContext) =>
  loader(context, 'accounts.organizationsById', () =>
    new DataLoader<string, Organization | null>(async (ids) =>
      byId(await context.em.find(Organization, { id: { $in: [...ids] } }), ids),
    ),
  );

/** The caller's role in each organization asked for (null when not a member). */
export const callerRoles = (context: RequestContext) =>
  loader(context, 'accounts.callerRoles', () =>
    new DataLoader<string, string | null>(async (organizationIds) => {
      if (!context.identity) return organizationIds.map(() => null);
      const memberships = await context.em.find(Membership, {
        userId: context.identity.userId,
        organizationId: { $in: [...organizationIds] },
      });
      const roles = new Map(memberships.map((membership) => [membership.organizationId, membership.role]));
      return organizationIds.map((id) => roles.get(id) ?? null);
    }),
  );
