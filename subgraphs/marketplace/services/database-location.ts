import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, badRequest, forbidden } from '../../../shared/errors.js';
import type { DatabaseLocation } from '../../../shared/ports.js';
import type { PlatformServices } from '../../../shared/services.js';
import type { Publisher } from '../entities/publisher.js';

/** Where a database publisher's queries run: all three of project_id, branch_id and database_name, or none yet. */
export function databaseLocationOf(publisher: Publisher): DatabaseLocation | null {
  const { projectId, branchId, databaseName } = publisher;
  if (!projectId && !branchId && !databaseName) return null;
  if (!projectId || !branchId || !databaseName) {
    throw badRequest('invalid_database_location', 'A database publisher names project_id, branch_id and database_name together');
  }
  return { projectId, branchId, databaseName };
}

/**
 * A database publisher may only publish one of its own organization's databases (403
 * `database_not_owned` otherwise, whoever else's it is, so nothing is learnt about it).
 */
export async function assertOwnDatabase(services: PlatformServices, em: EntityManager, publisher: Publisher): Promise<void> {
  if (publisher.publisherCategory !== 'database') return;
  const location = databaseLocationOf(publisher);
  if (!location) return;
  const owns = services.ports.ownsDatabase;
  if (!owns) throw new AppError(503, 'databases_unavailable', 'Managed databases are not available here to publish one');
  if (!(await owns(em, publisher.organizationId, location))) {
    throw forbidden('A database publisher publishes one of its organization’s own databases', 'database_not_owned');
  }
}
