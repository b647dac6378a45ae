import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sourcePathOf } from '../../../shared/project-root.js';
import type { PlatformServices } from '../../../shared/services.js';
import { Publisher } from '../entities/publisher.js';
import { announcePublisherChange } from '../services/load-publisher-for-call.js';
import { insertPublisher } from '../services/manage-publishers.js';
import { withSampleDatabase } from './sample-database.js';
import type { PublisherInput } from '../types/inputs.js';

/** Seeded publishers belong to the platform's own catalogue organization (not a sign-up account). */
export const CATALOGUE_ORGANIZATION_ID = '00000000-0000-4000-8000-00000000ca7a';

/** The development address the examples are written for; a seed shows the platform's own PUBLIC_URL instead. */
const EXAMPLE_BASE_URL = 'http://localhost:4000';

/**
 * What a seed needs before it can answer a caller: `apiKey`, the upstream's key (given in
 * SEED_PUBLISHER_KEYS by slug); `platform`, something the platform does not offer yet. A seed whose
 * needs are not met is neither listed nor callable: it is not loaded.
 */
export interface SeedNeeds {
  apiKey?: string;
  platform?: string;
}

export interface CatalogueEntry {
  input: PublisherInput;
  needs: SeedNeeds;
}

/** The data files live beside the sources (copied nowhere). */
const catalogueFolder = () => sourcePathOf(import.meta.url, 'catalogue');

export function readCatalogueEntries(folder = catalogueFolder()): CatalogueEntry[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const { needs = {}, ...input } = JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as PublisherInput & { needs?: SeedNeeds };
      return { input: input as PublisherInput, needs };
    });
}

export const readCatalogue = (folder?: string): PublisherInput[] => readCatalogueEntries(folder).map((entry) => entry.input);

/** What is still missing for a seed, in words for the operator; null when it can be loaded. */
function missingFor(entry: CatalogueEntry, keys: Record<string, string>): string | null {
  if (entry.needs.platform) return entry.needs.platform;
  if (entry.needs.apiKey && !keys[entry.input.slug!]) return `${entry.needs.apiKey}: add ${entry.input.slug}=<key> to SEED_PUBLISHER_KEYS, then run npm run seed:catalogue`;
  return null;
}

/** The seed as it is inserted: its key when it needs one, and examples that name this platform's address. */
function prepared(entry: CatalogueEntry, services: PlatformServices): PublisherInput {
  const key = services.config.seedPublisherKeys[entry.input.slug!];
  const publicUrl = services.config.publicUrl;
  return {
    ...entry.input,
    ...(entry.needs.apiKey && key ? { upstreamApiKey: key } : {}),
    usageExamples: entry.input.usageExamples?.map((example) => ({ ...example, curl: example.curl?.split(EXAMPLE_BASE_URL).join(publicUrl) })) as PublisherInput['usageExamples'],
  };
}

/**
 * Inserts every catalogue publisher whose slug is free and whose needs are met; returns the slugs
 * added. The ones still waiting are logged with what they need. One seeder at a time. Added ones
 * are announced as any new publisher is, so cached catalogue pages (here and in running platforms)
 * show them at once.
 */
export async function seedCatalogue(services: PlatformServices, options: { onlyWhenEmpty?: boolean } = {}): Promise<string[]> {
  const em = services.orm.em.fork() as EntityManager;
  const entries = readCatalogueEntries();
  const added = await em.transactional(async (tx) => {
    await tx.getConnection().execute("select pg_advisory_xact_lock(hashtext('market_seed_catalogue'))", [], 'all', tx.getTransactionContext());
    const taken = await tx.execute<{ slug: string }[]>('select slug from market_publisher where slug in (?)', [entries.map((entry) => entry.input.slug!)]);
    const takenSlugs = new Set(taken.map((row) => row.slug));
    const absent = entries.filter((entry) => !takenSlugs.has(entry.input.slug!));
    const waiting = absent.flatMap((entry) => {
      const missing = missingFor(entry, services.config.seedPublisherKeys);
      return missing ? [{ slug: entry.input.slug!, needs: missing }] : [];
    });
    for (const { slug, needs } of waiting) services.log.info({ slug, needs }, 'catalogue publisher not loaded until configured');
    if (options.onlyWhenEmpty && (await tx.count(Publisher, {})) > 0) return [];
    const added: string[] = [];
    for (const entry of absent) {
      if (waiting.some((seed) => seed.slug === entry.input.slug)) continue;
      // A SQL seed gets a sample database of the catalogue's own to answer from (skipped when it cannot).
      const located = await withSampleDatabase(services, tx, CATALOGUE_ORGANIZATION_ID, prepared(entry, services));
      if (!located) continue;
      await insertPublisher(tx, services, CATALOGUE_ORGANIZATION_ID, located);
      added.push(entry.input.slug!);
    }
    return added;
  });
  if (added.length > 0) await announcePublisherChange(services, em, ...added);
  return added;
}
