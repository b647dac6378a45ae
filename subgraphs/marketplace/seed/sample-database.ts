import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlatformServices } from '../../../shared/services.js';
import type { PublisherInput } from '../types/inputs.js';

/**
 * A seeded database publisher queries a real database: the organization's sample database, which
 * the databases module makes and fills on first request. Without that module (split mode without
 * its port) the seed cannot be answered and is left out (null).
 */
export async function withSampleDatabase(services: PlatformServices, em: EntityManager, organizationId: string, input: PublisherInput): Promise<PublisherInput | null> {
  if (input.publisherCategory !== 'database' || input.projectId) return input;
  const sample = services.ports.sampleDatabase;
  if (!sample) return null;
  const location = await sample(em, organizationId);
  return { ...input, projectId: location.projectId, branchId: location.branchId, databaseName: location.databaseName };
}
