import { MikroORM, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { Migrator } from '@mikro-orm/migrations';
import type { EntityClass, MigrationObject } from '@mikro-orm/core';
import type { SubgraphModule } from '../subgraph.js';
import { ledgerMigrations } from '../ledger/migrations.js';
import { x402Migrations } from '../x402/migrations.js';
import { outboxMigrations } from '../outbox/migrations.js';

const kernelMigrations: MigrationObject[] = [...ledgerMigrations, ...x402Migrations, ...outboxMigrations];

export interface OrmOptions {
  url: string;
  poolMax?: number;
  /** Waiting longer for a connection (all busy, or the server not answering) fails the query. */
  poolAcquireTimeoutMs?: number;
  debug?: boolean;
}

export function collectEntities(modules: SubgraphModule[]): EntityClass<any>[] {
  return modules.flatMap((module) => module.entities);
}

/**
 * The kernel's tables (the ledger, x402 payments, the event outbox) are used by several subgraphs, so every process
 * applies them; each subgraph owns its own. One ordered list (names start with a timestamp).
 */
export function collectMigrations(modules: SubgraphModule[]): MigrationObject[] {
  return [...kernelMigrations, ...modules.flatMap((module) => module.migrations)].sort((a, b) => a.name.localeCompare(b.name));
}

export async function createOrm(modules: SubgraphModule[], options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: options.url,
    entities: collectEntities(modules),
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    migrations: {
      migrationsList: collectMigrations(modules),
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    forceUtcTimezone: true,
    propagationOnPrototype: false,
    pool: { min: 0, max: options.poolMax ?? 20 },
    // pg-pool's connectionTimeoutMillis bounds both the wait for a free connection and opening a new one.
    driverOptions: { connectionTimeoutMillis: options.poolAcquireTimeoutMs ?? 10_000 },
    allowGlobalContext: false,
    debug: options.debug ?? false,
  });
}

export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((migration) => migration.name);
}
