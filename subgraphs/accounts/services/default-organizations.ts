import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../../../shared/ids.js';

/** The `defaultOrganizations` port: each user's default organization, in one query however many users. */
export async function defaultOrganizations(em: EntityManager, userIds: string[]): Promise<Map<string, string>> {
  const ids = userIds.filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await em.execute(`select id, default_organization_id from account_user where id = any(?::uuid[])`, [`{${ids.join(',')}}`]);
  return new Map(rows.map((row: Record<string, string>) => [row.id, row.default_organization_id]));
}

/** The `defaultOrganizationUsers` port: the users whose default organization it is. */
export async function defaultOrganizationUsers(em: EntityManager, organizationId: string): Promise<string[]> {
  if (!isUuid(organizationId)) return [];
  const rows = await em.execute(`select id from account_user where default_organization_id = ?`, [organizationId]);
  return rows.map((row: Record<string, string>) => row.id);
}
