import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlatformServices } from '../../../shared/services.js';
import { Publisher } from '../entities/publisher.js';
import { insertPublisher } from '../services/manage-publishers.js';
import { announcePublisherChange } from '../services/load-publisher-for-call.js';
import { withSampleDatabase } from './sample-database.js';
import type { PublisherInput } from '../types/inputs.js';

/** Seeded publishers belong to the platform's own catalogue organization (not a sign-up account). */
export const CATALOGUE_ORGANIZATION_ID = '00000000-0000-4000-8000-00000000ca7a';

/** The data files live beside the sources (copied nowhere): resolve from the compiled file back to the repo. */
function catalogueFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const fromDist = here.split(`${path.sep}dist${path.sep}`);
  return path.join(fromDist.length > 1 ? path.join(fromDist[0]!, fromDist[1]!) : here, 'catalogue');
}

export function readCatalogue(folder = catalogueFolder()): PublisherInput[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as PublisherInput);
}

/** Inserts every catalogue publisher whose slug is free; returns the slugs added. One seeder at a time. */
export async function seedCatalogue(services: PlatformServices, options: { onlyWhenEmpty?: boolean } = {}): Promise<string[]> {
  const em = services.orm.em.fork() as EntityManager;
  const added = await em.transactional(async (tx) => {
    await tx.getConnection().execute("select pg_advisory_xact_lock(hashtext('market_seed_catalogue'))", [], 'all', tx.getTransactionContext());
    if (options.onlyWhenEmpty && (await tx.count(Publisher, {})) > 0) return [];
    const added: string[] = [];
    for (const input of readCatalogue()) {
      if (await tx.count(Publisher, { slug: input.slug! })) continue;
      const located = await withSampleDatabase(services, tx, CATALOGUE_ORGANIZATION_ID, input);
      if (!located) continue;
      await insertPublisher(tx, services, CATALOGUE_ORGANIZATION_ID, located);
      added.push(input.slug!);
    }
    return added;
  });
  // Cached catalogue pages (here, and elsewhere by notice) show the new publishers at once.
  if (added.length > 0) await announcePublisherChange(services, em, ...added);
  return added;
}
