import DataLoader from 'dataloader';
import { loader, type RequestContext } from '../../shared/context.js';
import type { Organization } from './entities/organization.js';
import type { UserAccount } from './entities/user.js';

/**
 * These loaders only feed GraphQL answers, so they read plain rows (no identity map, no change
 * tracking): about a fifth of a read's CPU went to managing entities nobody would change.
 */
export type UserView = Pick<UserAccount, 'id' | 'email' | 'name' | 'kind' | 'emailVerified' | 'defaultOrganizationId' | 'createdAt'>;
export type OrganizationView = Pick<Organization, 'id' | 'name' | 'personal' | 'createdAt'>;

interface UserRow {
  id: string;
  email: string | null;
  name: string | null;
  kind: UserAccount['kind'];
  email_verified: boolean;
  default_organization_id: string;
  created_at: string | Date;
}

interface OrganizationRow {
  id: string;
  name: string;
  personal: boolean;
  created_at: string | Date;
}

/** Raw rows carry timestamps as PostgreSQL writes them (MikroORM leaves the driver's date parsing off). */
const dateOf = (value: string | Date): Date => (value instanceof Date ? value : new Date(value));

const USER_COLUMNS = 'u.id, u.email, u.name, u.kind, u.email_verified, u.default_organization_id, u.created_at';

const userOf = (row: UserRow): UserView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  kind: row.kind,
  emailVerified: row.email_verified,
  defaultOrganizationId: row.default_organization_id,
  createdAt: dateOf(row.created_at),
});

const organizationOf = (row: OrganizationRow): OrganizationView => ({
  id: row.id,
  name: row.name,
  personal: row.personal,
  createdAt: dateOf(row.created_at),
});

const byId = <T extends { id: string }>(rows: T[], ids: readonly string[]) => {
  const map = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => map.get(id) ?? null);
};

const rowsOf = <T>(context: RequestContext, sql: string, params: unknown[]) => context.em.getConnection().execute<T[]>(sql, params);

export const usersById = (context: RequestContext) =>
  loader(context, 'accounts.usersById', () =>
    new DataLoader<string, UserView | null>(async (ids) => {
      const rows = await rowsOf<UserRow>(context, `select ${USER_COLUMNS} from account_user u where u.id in (?)`, [ids]);
      return byId(rows.map(userOf), ids);
    }),
  );

export const organizationsById = (context: RequestContext) =>
  loader(context, 'accounts.organizationsById', () =>
    new DataLoader<string, OrganizationView | null>(async (ids) => {
      const rows = await rowsOf<OrganizationRow>(
        context,
        'select id, name, personal, created_at from account_organization where id in (?)',
        [ids],
      );
      return byId(rows.map(organizationOf), ids);
    }),
  );

/** A member's role in an organization (null when not a member), asked as `{ userId, organizationId }`. */
export const memberRoles = (context: RequestContext) =>
  loader(context, 'accounts.memberRoles', () =>
    new DataLoader<{ userId: string; organizationId: string }, string | null, string>(
      async (keys) => {
        const rows = await rowsOf<{ user_id: string; organization_id: string; role: string }>(
          context,
          'select user_id, organization_id, role from account_membership where user_id in (?) and organization_id in (?)',
          [[...new Set(keys.map((key) => key.userId))], [...new Set(keys.map((key) => key.organizationId))]],
        );
        const roles = new Map(rows.map((row) => [`${row.user_id}/${row.organization_id}`, row.role]));
        return keys.map(({ userId, organizationId }) => roles.get(`${userId}/${organizationId}`) ?? null);
      },
      { cacheKeyFn: ({ userId, organizationId }) => `${userId}/${organizationId}` },
    ),
  );

/**
 * The caller with their default organization and role, in one round trip instead of three: the
 * organization and role loaders are primed, so `me { defaultOrganization { role } }` asks nothing more.
 */
export async function loadCaller(context: RequestContext, userId: string): Promise<UserView | null> {
  const [row] = await rowsOf<UserRow & { org_name: string | null; org_personal: boolean | null; org_created_at: string | null; role: string | null }>(
    context,
    `select ${USER_COLUMNS}, o.name as org_name, o.personal as org_personal, o.created_at as org_created_at, m.role
       from account_user u
       left join account_organization o on o.id = u.default_organization_id
       left join account_membership m on m.organization_id = u.default_organization_id and m.user_id = u.id
      where u.id = ?`,
    [userId],
  );
  if (!row) return null;
  const user = userOf(row);
  usersById(context).prime(user.id, user);
  if (row.org_name !== null) {
    const organizationId = row.default_organization_id;
    organizationsById(context).prime(organizationId, organizationOf({ id: organizationId, name: row.org_name, personal: row.org_personal!, created_at: row.org_created_at! }));
    memberRoles(context).prime({ userId: user.id, organizationId }, row.role);
  }
  return user;
}
