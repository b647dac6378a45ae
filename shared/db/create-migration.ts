import 'reflect-metadata';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { subgraphModules } from '../../gateway/subgraphs.js';
import { createLogger } from '../logger.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { createOrm, migrate } from './orm.js';
import { pendingEntityChanges } from './schema-diff.js';

/**
 * `npm run migration:create -- <subgraph> <what>`: applies the committed migrations to a scratch
 * database, diffs the entities against it, and writes the difference as a new migration of that
 * subgraph (statements on its own tables only). Review it before committing.
 */
async function main() {
  const [subgraph, what] = process.argv.slice(2);
  if (!subgraph || !what || !subgraphModules.some((module) => module.name === subgraph)) {
    console.error(`usage: npm run migration:create -- <${subgraphModules.map((m) => m.name).join('|')}> <what>`);
    process.exit(2);
  }
  const log = createLogger('warn');
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(mkdtempSync(path.join(tmpdir(), 'migration-')), log);
  const adminUrl = process.env.DATABASE_URL ?? embedded!.url;
  const scratch = `migration_scratch_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${scratch}`);
  const url = new URL(adminUrl);
  url.pathname = `/${scratch}`;
  const orm = await createOrm(subgraphModules, { url: url.toString() });
  try {
    await migrate(orm);
    const prefix = subgraphModules.find((module) => module.name === subgraph)!.tablePrefix;
    const statements = await pendingEntityChanges(orm, prefix);
    if (statements.length === 0) {
      console.log('No entity changes: nothing to write.');
      return;
    }
    const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
    const className = `Migration${stamp}_${subgraph}_${what.replace(/[^a-zA-Z0-9]/g, '_')}`;
    const folder = path.resolve('subgraphs', subgraph, 'migrations');
    const body = statements.map((statement) => `    this.addSql(${JSON.stringify(statement)});`).join('\n');
    writeFileSync(
      path.join(folder, `${className}.ts`),
      `import { Migration } from '@mikro-orm/migrations';\n\nexport class ${className} extends Migration {\n  override async up(): Promise<void> {\n${body}\n  }\n}\n`,
    );
    const indexFile = path.join(folder, 'index.ts');
    const index = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : '';
    const imports = [...index.matchAll(/import \{ (\w+) \}/g)].map((m) => m[1]!).concat(className);
    writeFileSync(
      indexFile,
      `import type { MigrationObject } from '@mikro-orm/core';\n${imports.map((name) => `import { ${name} } from './${name}.js';`).join('\n')}\n\nexport const ${subgraph}Migrations: MigrationObject[] = [\n${imports.map((name) => `  { name: '${name}', class: ${name} },`).join('\n')}\n];\n`,
    );
    console.log(`Wrote ${className} with ${statements.length} statements. Review it before committing.`);
  } finally {
    await orm.close(true);
    await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    await admin.end();
    await embedded?.stop();
  }
}

await main();
