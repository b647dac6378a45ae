import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { DatabaseBranch } from '../entities/branch.js';
import { ManagedDatabase } from '../entities/database.js';
import { DatabaseProject } from '../entities/project.js';

export interface DatabaseWithContext {
  database: ManagedDatabase;
  project: DatabaseProject;
  branch: DatabaseBranch;
}

/** Every database of the caller's organization, with its project and branch: three queries in all. */
export async function listDatabases(context: RequestContext): Promise<DatabaseWithContext[]> {
  const identity = requireIdentity(context);
  const projects = await context.em.find(DatabaseProject, { organizationId: identity.organizationId }, { orderBy: { createdAt: 'asc' } });
  if (projects.length === 0) return [];
  const branches = await context.em.find(DatabaseBranch, { projectId: { $in: projects.map((p) => p.id) } });
  if (branches.length === 0) return [];
  const databases = await context.em.find(
    ManagedDatabase,
    { branchId: { $in: branches.map((b) => b.id) } },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  const projectById = new Map(projects.map((project) => [project.id, project]));
  const branchById = new Map(branches.map((branch) => [branch.id, branch]));
  return databases.map((database) => {
    const branch = branchById.get(database.branchId)!;
    return { database, branch, project: projectById.get(branch.projectId)! };
  });
}
