import type { RequestContext } from '../../../shared/context.js';
import { conflict } from '../../../shared/errors.js';
import { dataPlaneOf } from '../data-plane/open-data-plane.js';
import { dropManagedDatabase } from '../data-plane/provision.js';
import { DatabaseBranch } from '../entities/branch.js';
import { ManagedDatabase } from '../entities/database.js';
import { ComputeEndpoint, EndpointRun } from '../entities/endpoint.js';
import { findOwnedBranch } from './access.js';
import { withProjectLock } from './project-lock.js';

/** A branch with children (409 `branch_has_children`) or the default branch (409 `default_branch`) stays. */
export async function deleteBranch(context: RequestContext, projectId: string, branchId: string): Promise<boolean> {
  const { project, branch } = await findOwnedBranch(context, projectId, branchId);
  if (branch.id === project.defaultBranchId) throw conflict('default_branch', 'The project’s default branch cannot be deleted');
  const plane = await dataPlaneOf(context.services);
  return withProjectLock(context.em, project.id, async (tx) => {
    if (await tx.count(DatabaseBranch, { parentBranchId: branch.id })) throw conflict('branch_has_children', 'Delete the branches made from this one first');
    const databases = await tx.find(ManagedDatabase, { branchId: branch.id });
    for (const database of databases) await dropManagedDatabase(plane, database);
    const endpoints = await tx.find(ComputeEndpoint, { branchId: branch.id });
    await tx.nativeUpdate(EndpointRun, { endpointId: { $in: endpoints.map((endpoint) => endpoint.id) }, endedAt: null }, { endedAt: new Date() });
    await tx.nativeDelete(ComputeEndpoint, { branchId: branch.id });
    await tx.nativeDelete(ManagedDatabase, { branchId: branch.id });
    await tx.nativeDelete(DatabaseBranch, { id: branch.id });
    return true;
  });
}
