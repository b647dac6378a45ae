import type { RequestContext } from '../../../shared/context.js';
import { persistNew } from './persist-new.js';
import { conflict, notFound } from '../../../shared/errors.js';
import { checkedIdentifier, physicalName } from '../data-plane/names.js';
import { dataPlaneOf } from '../data-plane/open-data-plane.js';
import { createPhysicalDatabase, dropManagedDatabase, dropPhysicalDatabase } from '../data-plane/provision.js';
import { ManagedDatabase } from '../entities/database.js';
import { ComputeEndpoint } from '../entities/endpoint.js';
import type { CreateDatabaseInput } from '../types/inputs.js';
import { findOwnedBranch } from './access.js';
import { withProjectLock } from './project-lock.js';

export async function listBranchDatabases(context: RequestContext, projectId: string, branchId: string): Promise<ManagedDatabase[]> {
  const { branch } = await findOwnedBranch(context, projectId, branchId);
  return context.em.find(ManagedDatabase, { branchId: branch.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** A new empty database on the branch, owned by the project's role (name: a plain identifier, 400 otherwise). */
export async function createDatabase(context: RequestContext, input: CreateDatabaseInput): Promise<ManagedDatabase> {
  const name = checkedIdentifier(input.name, 'A database name', 'invalid_database_name');
  const { project, branch } = await findOwnedBranch(context, input.projectId, input.branchId);
  const plane = await dataPlaneOf(context.services);
  return withProjectLock(context.em, project.id, async (tx) => {
    if (await tx.count(ManagedDatabase, { branchId: branch.id, name })) throw conflict('database_exists', `The branch already has a database named ${name}`);
    const physical = physicalName(context.services.config.databases.namePrefix, 'd');
    await createPhysicalDatabase(plane, physical, project.roleName);
    try {
      const endpoint = await tx.findOne(ComputeEndpoint, { branchId: branch.id });
      // A database of a suspended branch is closed like the others until the endpoint starts.
      if (endpoint?.suspendedAt) await plane.setAllowConnections([physical], false);
      const database = persistNew(tx, ManagedDatabase, { branchId: branch.id, name, ownerName: project.roleName, physicalName: physical });
      await tx.flush();
      return database;
    } catch (error) {
      await dropPhysicalDatabase(plane, physical).catch(() => undefined);
      throw error;
    }
  });
}

export async function dropDatabase(context: RequestContext, projectId: string, branchId: string, name: string): Promise<boolean> {
  const { project, branch } = await findOwnedBranch(context, projectId, branchId);
  const plane = await dataPlaneOf(context.services);
  return withProjectLock(context.em, project.id, async (tx) => {
    const database = await tx.findOne(ManagedDatabase, { branchId: branch.id, name });
    if (!database) throw notFound('Database');
    await dropManagedDatabase(plane, database);
    await tx.nativeDelete(ManagedDatabase, { id: database.id });
    return true;
  });
}
