import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlatformServices } from '../../../shared/services.js';
import { dataPlaneOf } from '../data-plane/open-data-plane.js';
import { ComputeEndpoint } from '../entities/endpoint.js';
import { physicalNamesOf, suspendEndpointNow } from './endpoints.js';
import { withProjectLock } from './project-lock.js';

/**
 * Endpoints quiet for ENDPOINT_IDLE_SUSPEND_SECONDS are suspended. Quiet means no SQL through the
 * platform and no session of a direct client that did anything since then; a session still busy
 * counts as activity (the endpoint is marked active instead). Returns how many were suspended.
 */
export async function suspendIdleEndpoints(services: PlatformServices, now = new Date()): Promise<number> {
  const em = services.orm.em.fork() as EntityManager;
  const idleSince = new Date(now.getTime() - services.config.databases.idleSuspendSeconds * 1000);
  const candidates = await em.find(ComputeEndpoint, { suspendedAt: null, lastActiveAt: { $lt: idleSince } }, { limit: 200 });
  if (candidates.length === 0) return 0;
  const plane = await dataPlaneOf(services);
  let suspended = 0;
  for (const candidate of candidates) {
    const databases = await physicalNamesOf(em, candidate.branchId);
    const { rows } = await plane.admin.query<{ latest: Date | null }>(
      `SELECT max(CASE WHEN state = 'active' THEN now() ELSE state_change END) AS latest FROM pg_stat_activity WHERE datname = ANY($1::text[])`,
      [databases],
    );
    const latest = rows[0]?.latest ? new Date(rows[0].latest) : null;
    await withProjectLock(em, candidate.projectId, async (tx) => {
      const endpoint = await tx.findOne(ComputeEndpoint, { id: candidate.id }, { refresh: true });
      if (!endpoint || endpoint.suspendedAt || endpoint.lastActiveAt >= idleSince) return;
      if (latest && latest >= idleSince) {
        endpoint.lastActiveAt = latest;
        return void (await tx.flush());
      }
      await suspendEndpointNow(services, tx, endpoint);
      suspended += 1;
    });
  }
  return suspended;
}
