import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { composeSupergraph } from '../../gateway/compose.js';
import { supergraphPath } from '../../gateway/supergraph-file.js';
import { subgraphModules } from '../../gateway/subgraphs.js';
import { createOrm, migrate } from '../../shared/db/orm.js';
import { pendingEntityChanges } from '../../shared/db/schema-diff.js';
import { createTestDatabase } from '../support/database.js';

describe('the committed supergraph', () => {
  it('matches what the subgraphs compose to (run `npm run compose` after a schema change)', async () => {
    expect(readFileSync(supergraphPath(), 'utf8')).toBe(await composeSupergraph());
  });
});

describe('the committed migrations', () => {
  it('produce exactly the schema the entities describe (generate one with `npm run migration:create`)', async () => {
    const database = await createTestDatabase();
    const orm = await createOrm(subgraphModules, { url: database.url, poolMax: 2 });
    try {
      await migrate(orm);
      expect(await pendingEntityChanges(orm)).toEqual([]);
    } finally {
      await orm.close(true);
      await database.drop();
    }
  });

  it('keep every table inside its subgraph’s prefix', () => {
    for (const module of subgraphModules) {
      for (const migration of module.migrations) expect(migration.name).toContain(`_${module.name}_`);
    }
  });
});
