import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlatformServices } from '../../../shared/services.js';
import { dataPlaneOf } from '../data-plane/open-data-plane.js';
import { databaseSizes } from '../data-plane/provision.js';
import { ComputeEndpoint, EndpointRun } from '../entities/endpoint.js';
import { DatabaseProject } from '../entities/project.js';
import { physicalNamesOf } from './endpoints.js';

const HOUR_MS = 3_600_000;
/** A platform that was down longer catches up this many hours per endpoint and sweep. */
const MAX_HOURS_PER_SWEEP = 48;

const overlapSeconds = (run: EndpointRun, from: number, to: number, now: number) =>
  Math.max(0, Math.min(run.endedAt?.getTime() ?? now, to) - Math.max(run.startedAt.getTime(), from)) / 1000;

/**
 * Every whole hour an endpoint existed is recorded once: `database.compute_seconds` (seconds not
 * suspended times autoscaling_min) and `database.storage_byte_hours` (the branch's size, sampled
 * when the hour is recorded), keyed by endpoint or branch and hour, so replicas or a replay record
 * nothing twice. Without a billing module (no recordUsage port) nothing is recorded or marked.
 */
export async function recordDatabaseUsage(services: PlatformServices, now = new Date()): Promise<number> {
  const record = services.ports.recordUsage;
  if (!record) {
    services.log.debug('no billing module answers recordUsage: database usage not recorded');
    return 0;
  }
  const em = services.orm.em.fork() as EntityManager;
  const currentHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const due = await em.find(ComputeEndpoint, { usageRecordedUntil: { $lt: new Date(currentHour) } }, { limit: 500 });
  if (due.length === 0) return 0;
  const plane = await dataPlaneOf(services);
  const { computeSecondPriceMicros, storageByteHourPriceMicros } = services.config.databases;
  let recorded = 0;
  for (const endpoint of due) {
    const project = await em.findOne(DatabaseProject, { id: endpoint.projectId });
    if (!project) continue;
    const runs = await em.find(EndpointRun, { endpointId: endpoint.id, $or: [{ endedAt: null }, { endedAt: { $gt: endpoint.usageRecordedUntil } }] });
    const names = await physicalNamesOf(em, endpoint.branchId);
    const size = [...(await databaseSizes(plane, names)).values()].reduce((sum, bytes) => sum + bytes, 0n);
    let hour = endpoint.usageRecordedUntil.getTime();
    for (let count = 0; hour < currentHour && count < MAX_HOURS_PER_SWEEP; count++, hour += HOUR_MS) {
      const seconds = runs.reduce((sum, run) => sum + overlapSeconds(run, hour, hour + HOUR_MS, now.getTime()), 0);
      const occurredAt = new Date(hour);
      const at = occurredAt.toISOString();
      const usages = [
        { meter: 'database.compute_seconds', quantity: String(Math.round(seconds * endpoint.autoscalingMin * 1000) / 1000), unitPriceMicros: computeSecondPriceMicros, key: `${endpoint.id}:${at}` },
        { meter: 'database.storage_byte_hours', quantity: String(size), unitPriceMicros: storageByteHourPriceMicros, key: `${endpoint.branchId}:${at}` },
      ];
      for (const usage of usages) {
        if (usage.quantity === '0') continue;
        const fresh = await record(em, {
          organizationId: project.organizationId,
          meter: usage.meter,
          quantity: usage.quantity,
          unitPriceMicros: usage.unitPriceMicros,
          occurredAt,
          idempotencyKey: `${usage.meter}:${usage.key}`,
        });
        if (fresh) recorded += 1;
      }
      await em.nativeUpdate(ComputeEndpoint, { id: endpoint.id }, { usageRecordedUntil: new Date(hour + HOUR_MS) });
    }
  }
  return recorded;
}
