import type { RequestContext } from '../../../shared/context.js';
import { dataPlaneOf } from '../data-plane/open-data-plane.js';
import { dropManagedDatabase, dropRole } from '../data-plane/provision.js';
import { DatabaseBranch } from '../entities/branch.js';
import { ManagedDatabase } from '../entities/database.js';
import { ComputeEndpoint, EndpointRun } from '../entities/endpoint.js';
import { DatabaseProject } from '../entities/project.js';
import { findOwnedProject } from './access.js';
import { withProjectLock } from './project-lock.js';

/** Drops every database of the project (their sessions ended first), then its role, then its records. */
export async function deleteProject(context: RequestContext, projectId: string): Promise<boolean> {
  const project = await findOwnedProject(context, projectId);
  const plane = await dataPlaneOf(context.services);
  return withProjectLock(context.em, project.id, async (tx) => {
    const branches = await tx.find(DatabaseBranch, { projectId: project.id });
    const branchIds = branches.map((branch) => branch.id);
    const databases = await tx.find(ManagedDatabase, { branchId: { $in: branchIds } });
    for (const database of databases) await dropManagedDatabase(plane, database);
    await dropRole(plane, project.roleName);
    const endpoints = await tx.find(ComputeEndpoint, { projectId: project.id });
    await tx.nativeUpdate(EndpointRun, { endpointId: { $in: endpoints.map((endpoint) => endpoint.id) }, endedAt: null }, { endedAt: new Date() });
    await tx.nativeDelete(ComputeEndpoint, { projectId: project.id });
    await tx.nativeDelete(ManagedDatabase, { branchId: { $in: branchIds } });
    await tx.nativeDelete(DatabaseBranch, { projectId: project.id });
    await tx.nativeDelete(DatabaseProject, { id: project.id });
    return true;
  });
}
