import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { notFound } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { DatabaseBranch } from '../entities/branch.js';
import { ComputeEndpoint } from '../entities/endpoint.js';
import { DatabaseProject } from '../entities/project.js';

/** The caller's organization's project; any other id (another organization's, unknown, malformed) is 404. */
export async function findOwnedProject(context: RequestContext, projectId: string): Promise<DatabaseProject> {
  const { organizationId } = requireIdentity(context);
  const project = isUuid(projectId) ? await context.em.findOne(DatabaseProject, { id: projectId, organizationId }) : null;
  if (!project) throw notFound('Project');
  return project;
}

export interface OwnedBranch {
  project: DatabaseProject;
  branch: DatabaseBranch;
}

export async function findOwnedBranch(context: RequestContext, projectId: string, branchId: string): Promise<OwnedBranch> {
  const project = await findOwnedProject(context, projectId);
  const branch = isUuid(branchId) ? await context.em.findOne(DatabaseBranch, { id: branchId, projectId: project.id }) : null;
  if (!branch) throw notFound('Branch');
  return { project, branch };
}

export async function findOwnedEndpoint(context: RequestContext, projectId: string, branchId: string, endpointId: string) {
  const owned = await findOwnedBranch(context, projectId, branchId);
  const endpoint = isUuid(endpointId) ? await context.em.findOne(ComputeEndpoint, { id: endpointId, branchId: owned.branch.id }) : null;
  if (!endpoint) throw notFound('Endpoint');
  return { ...owned, endpoint };
}
