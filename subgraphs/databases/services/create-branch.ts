import type { EntityManager } from '@mikro-orm/postgresql';
import { persistNew } from './persist-new.js';
import type { RequestContext } from '../../../shared/context.js';
import { conflict, notFound } from '../../../shared/errors.js';
import type { DataPlane } from '../data-plane/data-plane.js';
import { withExclusiveWindow } from '../data-plane/exclusive-window.js';
import { checkedBranchName, physicalName } from '../data-plane/names.js';
import { dataPlaneOf } from '../data-plane/open-data-plane.js';
import { createPhysicalDatabase, dropPhysicalDatabase } from '../data-plane/provision.js';
import { DatabaseBranch } from '../entities/branch.js';
import { ManagedDatabase } from '../entities/database.js';
import type { DatabaseProject } from '../entities/project.js';
import type { CreateBranchInput } from '../types/inputs.js';
import { isUuid } from '../../../shared/ids.js';
import { findOwnedProject } from './access.js';
import { addEndpoint } from './endpoints.js';
import { withProjectLock } from './project-lock.js';

/**
 * A branch is a real copy of its parent's databases at this moment (CREATE DATABASE … TEMPLATE …
 * STRATEGY FILE_COPY: copy-on-write where the data plane's filesystem can), taken in a brief
 * exclusive window on the parent whose length the branch records (`parentPauseMs`), with the
 * parent's WAL position and time. It gets its own running endpoint unless asked not to.
 */
export async function createBranch(context: RequestContext, input: CreateBranchInput): Promise<DatabaseBranch> {
  const project = await findOwnedProject(context, input.projectId);
  const name = checkedBranchName(input.name);
  const plane = await dataPlaneOf(context.services);
  return withProjectLock(context.em, project.id, async (tx) => {
    const parent = await parentBranch(tx, project, input.parentBranchId);
    if (await tx.count(DatabaseBranch, { projectId: project.id, name })) throw conflict('branch_exists', `The project already has a branch named ${name}`);
    const sources = await tx.find(ManagedDatabase, { branchId: parent.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    const copies = sources.map((source) => ({ source, copy: physicalName(context.services.config.databases.namePrefix, 'd') }));
    try {
      const parentDatabases = sources.map((source) => source.physicalName);
      await flushDirtyPages(plane);
      const window = await withExclusiveWindow(plane, parentDatabases, context.services.config.databases.branchParentWaitMs, async () => {
        const state = await parentState(plane);
        for (const { source, copy } of copies) await createPhysicalDatabase(plane, copy, project.roleName, source.physicalName);
        return state;
      });
      const withEndpoint = input.withEndpoint ?? true;
      // No compute, no connections: the endpoint created later opens them.
      if (!withEndpoint) await plane.setAllowConnections(copies.map((entry) => entry.copy), false);
      const branch = persistNew(tx, DatabaseBranch, {
        projectId: project.id,
        name,
        parentBranchId: parent.id,
        parentLsn: window.value.lsn,
        parentStateAt: window.value.at,
        parentPauseMs: window.pauseMs,
      });
      for (const { source, copy } of copies) persistNew(tx, ManagedDatabase, { branchId: branch.id, name: source.name, ownerName: project.roleName, physicalName: copy });
      if (withEndpoint) addEndpoint(tx, project.id, branch.id, {});
      await tx.flush();
      return branch;
    } catch (error) {
      await dropCopies(plane, copies.map((entry) => entry.copy));
      throw error;
    }
  });
}

async function parentBranch(tx: EntityManager, project: DatabaseProject, parentBranchId: string | null | undefined): Promise<DatabaseBranch> {
  const id = parentBranchId ?? project.defaultBranchId;
  const parent = isUuid(id) ? await tx.findOne(DatabaseBranch, { id, projectId: project.id }) : null;
  if (!parent) throw notFound('Branch');
  return parent;
}

/** The data plane's WAL position and clock while the parent has no session: the copy holds exactly that state. */
async function parentState(plane: DataPlane): Promise<{ lsn: string; at: Date }> {
  const { rows } = await plane.admin.query<{ lsn: string; at: Date }>('SELECT pg_current_wal_lsn()::text AS lsn, now() AS at');
  return { lsn: rows[0]!.lsn, at: new Date(rows[0]!.at) };
}

/**
 * FILE_COPY checkpoints inside the window; a checkpoint just before it leaves that one little to
 * write, so the parent pauses for the copy rather than for the whole server's dirty pages. Needs
 * pg_checkpoint (the embedded cluster grants it); without it the window is only longer.
 */
async function flushDirtyPages(plane: DataPlane): Promise<void> {
  await plane.admin.query('CHECKPOINT').catch((error: { code?: string }) => {
    if (error.code !== '42501') throw error;
  });
}

async function dropCopies(plane: DataPlane, names: string[]): Promise<void> {
  for (const name of names) await dropPhysicalDatabase(plane, name).catch(() => undefined);
}
