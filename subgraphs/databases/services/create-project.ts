import type { EntityManager } from '@mikro-orm/postgresql';
import { persistNew } from './persist-new.js';
import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors.js';
import { secretBoxOf } from '../../../shared/secret-box.js';
import type { PlatformServices } from '../../../shared/services.js';
import { isUnstorableText } from '../../../shared/text.js';
import type { DataPlane } from '../data-plane/data-plane.js';
import { generatePassword, physicalName } from '../data-plane/names.js';
import { createPhysicalDatabase, createProjectRole, dropPhysicalDatabase, dropRole } from '../data-plane/provision.js';
import { dataPlaneOf } from '../data-plane/open-data-plane.js';
import { DatabaseBranch } from '../entities/branch.js';
import { ManagedDatabase } from '../entities/database.js';
import { DatabaseProject } from '../entities/project.js';
import type { CreateProjectInput } from '../types/inputs.js';
import type { CreatedProject } from '../types/results.js';
import { connectionUri } from './connection-uri.js';
import { addEndpoint } from './endpoints.js';

export const DEFAULT_BRANCH = 'main';
export const DEFAULT_DATABASE = 'app';

function checkedProjectName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 100 || isUnstorableText(trimmed) || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw badRequest('invalid_name', 'A project name is 1 to 100 characters, without control characters');
  }
  return trimmed;
}

function checkedRegion(regions: string[], region: string | null | undefined): string {
  const chosen = region ?? regions[0]!;
  if (!regions.includes(chosen)) throw badRequest('invalid_region', `region must be one of: ${regions.join(', ')}`);
  return chosen;
}

/**
 * A project: its login role (generated password, sealed at rest), a default branch `main` with one
 * database `app`, and the branch's endpoint. The data plane is provisioned first; should the
 * platform's records then fail, what was provisioned is dropped again.
 */
export async function createProject(context: RequestContext, input: CreateProjectInput): Promise<CreatedProject> {
  const { organizationId } = requireIdentity(context);
  const name = checkedProjectName(input.name);
  const region = checkedRegion(context.services.config.databases.regions, input.region);
  return provisionProject(context.services, context.em, organizationId, name, region);
}

export async function provisionProject(services: PlatformServices, em: EntityManager, organizationId: string, name: string, region: string): Promise<CreatedProject> {
  const { config, log } = services;
  const plane = await dataPlaneOf(services);
  const role = physicalName(config.databases.namePrefix, 'r');
  const password = generatePassword();
  const databaseName = physicalName(config.databases.namePrefix, 'd');
  await createProjectRole(plane, role, password);
  try {
    await createPhysicalDatabase(plane, databaseName, role);
    const project = await em.fork().transactional((tx) =>
      recordProject(tx, { organizationId, name, region, role, sealed: secretBoxOf(services).encrypt(password), databaseName }),
    );
    return { project, password, connectionUri: connectionUri(plane, role, password, databaseName) };
  } catch (error) {
    await undoProvisioning(plane, role, databaseName).catch((undoError) =>
      log.error({ err: undoError, role, databaseName }, 'a project that failed left data-plane objects behind'),
    );
    throw error;
  }
}

async function recordProject(
  tx: EntityManager,
  values: { organizationId: string; name: string; region: string; role: string; sealed: string; databaseName: string },
): Promise<DatabaseProject> {
  const project = persistNew(tx, DatabaseProject, {
    organizationId: values.organizationId,
    name: values.name,
    region: values.region,
    roleName: values.role,
    passwordSealed: values.sealed,
    defaultBranchId: '00000000-0000-0000-0000-000000000000',
  });
  const branch = persistNew(tx, DatabaseBranch, { projectId: project.id, name: DEFAULT_BRANCH });
  project.defaultBranchId = branch.id;
  persistNew(tx, ManagedDatabase, { branchId: branch.id, name: DEFAULT_DATABASE, ownerName: values.role, physicalName: values.databaseName });
  addEndpoint(tx, project.id, branch.id, {});
  await tx.flush();
  return project;
}

async function undoProvisioning(plane: DataPlane, role: string, databaseName: string): Promise<void> {
  await dropPhysicalDatabase(plane, databaseName);
  await dropRole(plane, role);
}
