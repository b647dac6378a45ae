import type { EntityManager } from '@mikro-orm/postgresql';
import { readCatalogue, CATALOGUE_ORGANIZATION_ID } from '../../../subgraphs/marketplace/seed/seed-catalogue.js';
import { insertPublisher } from '../../../subgraphs/marketplace/services/manage-publishers.js';
import type { BenchScenario } from '../scenario.js';

const PUBLISHERS = 1000;

/** GET /publishers with search over 1,000 publishers (catalogue records, renamed), each with endpoints and pricing. */
export const publishersScenario: BenchScenario = {
  name: 'publishers',
  async run({ url, services, measure }) {
    // A database publisher needs a database of its own (issue 24's scenario covers those).
    const templates = readCatalogue().filter((template) => template.publisherCategory !== 'database');
    const em = services.orm.em.fork() as EntityManager;
    await em.transactional(async (tx) => {
      for (let index = 0; index < PUBLISHERS; index++) {
        const template = templates[index % templates.length]!;
        const input = { ...template, slug: `${template.slug}-${index}`, name: `${template.name} ${index}` };
        await insertPublisher(tx, services, CATALOGUE_ORGANIZATION_ID, input);
        if (index % 100 === 99) tx.clear();
      }
    });
    // As autovacuum would after a bulk load: the planner needs statistics to choose the GIN indexes.
    await em.getConnection().execute('analyze market_publisher');
    const cases = [
      ['GET /publishers?search=embeddings (limit 50)', '/publishers?search=embeddings'],
      ['GET /publishers?search=embedings (typo, limit 50)', '/publishers?search=embedings'],
      ['GET /publishers?search=stock%20quotes&limit=10', '/publishers?search=stock%20quotes&limit=10'],
      ['GET /publishers (no search, limit 50)', '/publishers'],
    ] as const;
    await measure({ url: `${url}${cases[0][1]}`, amount: 200 });
    const rows = [];
    for (const [label, path] of cases) {
      rows.push({ scenario: 'publishers', case: label, measurement: await measure({ url: `${url}${path}`, connections: 10, durationSeconds: 5 }) });
    }
    // The same pages as the catalogue's cache would not hold them: every request a new URL (a query
    // parameter the route ignores), so each is read from the database and shaped again.
    const uncached = [
      ['GET /publishers?search=embeddings (limit 50, not cached)', '/publishers?search=embeddings'],
      ['GET /publishers (no search, limit 50, not cached)', '/publishers?limit=50'],
    ] as const;
    for (const [label, path] of uncached) {
      const pathOf = (index: number) => `${path}&bench=${index}`;
      rows.push({ scenario: 'publishers', case: label, measurement: await measure({ url: `${url}${path}`, pathOf, connections: 10, durationSeconds: 5 }) });
    }
    return rows;
  },
};
