import type { EntityManager } from '@mikro-orm/postgresql';
import { persistNew } from './persist-new.js';
import type { RequestContext } from '../../../shared/context.js';
import { badRequest, conflict } from '../../../shared/errors.js';
import type { PlatformServices } from '../../../shared/services.js';
import { dataPlaneOf } from '../data-plane/open-data-plane.js';
import { ManagedDatabase } from '../entities/database.js';
import { ComputeEndpoint, EndpointRun } from '../entities/endpoint.js';
import type { CreateEndpointInput } from '../types/inputs.js';
import { findOwnedBranch, findOwnedEndpoint } from './access.js';
import { withProjectLock } from './project-lock.js';

/** An endpoint that ran SQL within this long is `active`; a running one quieter than that is `idle`. */
const ACTIVE_WITHIN_MS = 60_000;

export type EndpointState = 'active' | 'idle' | 'suspended';

export function endpointState(endpoint: ComputeEndpoint, now = Date.now()): EndpointState {
  if (endpoint.suspendedAt) return 'suspended';
  return now - endpoint.lastActiveAt.getTime() < ACTIVE_WITHIN_MS ? 'active' : 'idle';
}

const floorToHour = (at: Date) => new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);

/** Compute units as the specification types them: integers 1 to 8, min <= max. */
function checkedScaling(min: number | null | undefined, max: number | null | undefined): { min: number; max: number } {
  const low = min ?? 1;
  const high = max ?? Math.max(low, 1);
  for (const [name, value] of [['autoscaling_min', low], ['autoscaling_max', high]] as const) {
    if (!Number.isInteger(value) || value < 1 || value > 8) throw badRequest('invalid_autoscaling', `${name} must be an integer from 1 to 8`);
  }
  if (low > high) throw badRequest('invalid_autoscaling', 'autoscaling_min must not exceed autoscaling_max');
  return { min: low, max: high };
}

/** A running endpoint for a branch, with its first run open (usage counts from now). */
export function addEndpoint(
  tx: EntityManager,
  projectId: string,
  branchId: string,
  options: { autoscalingMin?: number | null; autoscalingMax?: number | null; autoStart?: boolean | null },
): ComputeEndpoint {
  const scaling = checkedScaling(options.autoscalingMin, options.autoscalingMax);
  const now = new Date();
  const endpoint = persistNew(tx, ComputeEndpoint, {
    projectId,
    branchId,
    autoscalingMin: scaling.min,
    autoscalingMax: scaling.max,
    autoStart: options.autoStart ?? true,
    lastActiveAt: now,
    usageRecordedUntil: floorToHour(now),
  });
  persistNew(tx, EndpointRun, { endpointId: endpoint.id, startedAt: now });
  return endpoint;
}

/** One read-write endpoint per branch: a branch that has one answers 409 `endpoint_exists`. */
export async function createEndpoint(context: RequestContext, input: CreateEndpointInput): Promise<ComputeEndpoint> {
  const { project, branch } = await findOwnedBranch(context, input.projectId, input.branchId);
  return withProjectLock(context.em, project.id, async (tx) => {
    if (await tx.count(ComputeEndpoint, { branchId: branch.id })) throw conflict('endpoint_exists', 'This branch already has its read-write endpoint');
    const endpoint = addEndpoint(tx, project.id, branch.id, input);
    const plane = await dataPlaneOf(context.services);
    await plane.setAllowConnections(await physicalNamesOf(tx, branch.id), true);
    await tx.flush();
    return endpoint;
  });
}

/** The data-plane names of a branch's databases. */
export const physicalNamesOf = async (em: EntityManager, branchId: string) =>
  (await em.find(ManagedDatabase, { branchId }, { fields: ['physicalName'] })).map((database) => database.physicalName);

/** Suspended: the branch's databases refuse new connections and the open ones are ended. */
export async function suspendEndpointNow(services: PlatformServices, tx: EntityManager, endpoint: ComputeEndpoint): Promise<void> {
  if (endpoint.suspendedAt) return;
  const plane = await dataPlaneOf(services);
  const databases = await physicalNamesOf(tx, endpoint.branchId);
  await plane.setAllowConnections(databases, false);
  await plane.terminateSessions(databases);
  const now = new Date();
  endpoint.suspendedAt = now;
  await tx.nativeUpdate(EndpointRun, { endpointId: endpoint.id, endedAt: null }, { endedAt: now });
  await tx.flush();
}

export async function startEndpointNow(services: PlatformServices, tx: EntityManager, endpoint: ComputeEndpoint): Promise<void> {
  if (!endpoint.suspendedAt) return;
  const plane = await dataPlaneOf(services);
  await plane.setAllowConnections(await physicalNamesOf(tx, endpoint.branchId), true);
  const now = new Date();
  endpoint.suspendedAt = null;
  endpoint.lastActiveAt = now;
  persistNew(tx, EndpointRun, { endpointId: endpoint.id, startedAt: now });
  await tx.flush();
}

/** The endpoint as the lock holder sees it (another request may have changed it meanwhile). */
const lockedEndpoint = (tx: EntityManager, endpointId: string) => tx.findOneOrFail(ComputeEndpoint, { id: endpointId }, { refresh: true });

export async function suspendEndpoint(context: RequestContext, projectId: string, branchId: string, endpointId: string): Promise<ComputeEndpoint> {
  const { project, endpoint } = await findOwnedEndpoint(context, projectId, branchId, endpointId);
  return withProjectLock(context.em, project.id, async (tx) => {
    const locked = await lockedEndpoint(tx, endpoint.id);
    await suspendEndpointNow(context.services, tx, locked);
    return locked;
  });
}

export async function startEndpoint(context: RequestContext, projectId: string, branchId: string, endpointId: string): Promise<ComputeEndpoint> {
  const { project, endpoint } = await findOwnedEndpoint(context, projectId, branchId, endpointId);
  return withProjectLock(context.em, project.id, async (tx) => {
    const locked = await lockedEndpoint(tx, endpoint.id);
    await startEndpointNow(context.services, tx, locked);
    return locked;
  });
}

/**
 * Before SQL: a suspended endpoint is started, as a serverless endpoint is, unless its auto-start
 * is off (409 `endpoint_suspended`). Waits for any data-plane change of the project in progress
 * (a branch's window on this branch).
 */
export async function readyEndpointForSql(services: PlatformServices, em: EntityManager, projectId: string, branchId: string): Promise<void> {
  await withProjectLock(em, projectId, async (tx) => {
    const endpoint = await tx.findOne(ComputeEndpoint, { branchId }, { refresh: true });
    if (!endpoint) throw conflict('endpoint_not_found', 'This branch has no compute endpoint: create one first');
    if (!endpoint.suspendedAt) return;
    if (!endpoint.autoStart) throw conflict('endpoint_suspended', 'The branch’s endpoint is suspended and does not start on its own: start it first');
    await startEndpointNow(services, tx, endpoint);
  });
}

/** At most one write a minute per endpoint marks it active (enough for the idle sweep and the state). */
export async function markEndpointActive(em: EntityManager, endpoint: ComputeEndpoint | null): Promise<void> {
  if (!endpoint || Date.now() - endpoint.lastActiveAt.getTime() < 30_000) return;
  await em.nativeUpdate(ComputeEndpoint, { id: endpoint.id }, { lastActiveAt: new Date() });
}
