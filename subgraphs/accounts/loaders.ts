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

/** A member's role in an organization (null when not a member), asked as `{ userId, organizationId }`. */
export const memberRoles = (context: RequestContext) =>
  loader(context, 'accounts.memberRoles', () =>
    new DataLoader<{ userId: string; organizationId: string }, string | null, string>(
      async (keys) => {
        const memberships = await context.em.find(Membership, { $or: keys.map(({ userId, organizationId }) => ({ userId, organizationId })) });
        const roles = new Map(memberships.map((membership) => [`${membership.userId}/${membership.organizationId}`, membership.role]));
        return keys.map(({ userId, organizationId }) => roles.get(`${userId}/${organizationId}`) ?? null);
      },
      { cacheKeyFn: ({ userId, organizationId }) => `${userId}/${organizationId}` },
    ),
  );
