import type { EntityManager } from '@mikro-orm/postgresql';
import type { DatabaseLocation } from '../../../shared/ports.js';
import type { PlatformServices } from '../../../shared/services.js';
import { DatabaseBranch } from '../entities/branch.js';
import { ManagedDatabase } from '../entities/database.js';
import { DatabaseProject } from '../entities/project.js';
import { DEFAULT_DATABASE, provisionProject } from './create-project.js';
import { projectLogin, withBranchSession } from './sql-session.js';

const SAMPLE_PROJECT = 'Sample: county statistics';

/**
 * A small data set for a first paid query, generated deterministically (no download): 250
 * fictional counties in 10 states with population, median household income and housing units for
 * 2015-2024 (about 5,250 rows). The same statements always give the same rows.
 */
const SAMPLE_SQL = [
  `CREATE TABLE counties (id int PRIMARY KEY, name text NOT NULL, state text NOT NULL, area_sq_km numeric(8,1) NOT NULL)`,
  `CREATE TABLE population_by_year (county_id int NOT NULL REFERENCES counties, name text NOT NULL, state text NOT NULL, year int NOT NULL, population int NOT NULL, PRIMARY KEY (county_id, year))`,
  `CREATE TABLE household_income (county_id int NOT NULL REFERENCES counties, year int NOT NULL, median_income_usd int NOT NULL, PRIMARY KEY (county_id, year))`,
  `CREATE TABLE housing_units (county_id int NOT NULL REFERENCES counties, year int NOT NULL, units int NOT NULL, PRIMARY KEY (county_id, year))`,
  `CREATE FUNCTION pg_temp.noise(seed text) RETURNS float8 LANGUAGE sql IMMUTABLE AS $$ SELECT (('x' || substr(md5(seed), 1, 8))::bit(32)::bigint & 2147483647) / 2147483647.0 $$`,
  `INSERT INTO counties
     SELECT i, (ARRAY['Oak','Pine','Cedar','Maple','Willow','Lake','River','Hill','Stone','Clay','Red','Green','Grand','Fair','Spring','Mill','Bear','Elk','Fox','Hawk','Iron','Silver','Gold','Rock','Sand'])[1 + i / 10]
              || (ARRAY['field','wood','dale','ford','ton','brook','view','land','port','ridge'])[1 + i % 10] || ' County',
            (ARRAY['CA','TX','NY','FL','IL','PA','OH','GA','NC','WA'])[1 + (i * 7) % 10],
            round((200 + pg_temp.noise('area' || i) * 4800)::numeric, 1)
       FROM generate_series(0, 249) AS i`,
  `INSERT INTO population_by_year
     SELECT c.id, c.name, c.state, y, (2000 + power(pg_temp.noise('pop' || c.id), 3) * 2500000 * (1 + (y - 2015) * (pg_temp.noise('growth' || c.id) - 0.35) / 40))::int
       FROM counties c CROSS JOIN generate_series(2015, 2024) AS y`,
  `INSERT INTO household_income
     SELECT c.id, y, (38000 + pg_temp.noise('income' || c.id) * 72000 * (1 + (y - 2015) * 0.025))::int
       FROM counties c CROSS JOIN generate_series(2015, 2024) AS y`,
  `INSERT INTO housing_units SELECT p.county_id, p.year, (p.population / (2.2 + pg_temp.noise('household' || p.county_id)))::int FROM population_by_year p`,
  `ANALYZE`,
];

/** The organization's sample project (made and filled on first call), its default branch's database. */
export async function sampleDatabase(services: PlatformServices, em: EntityManager, organizationId: string): Promise<DatabaseLocation> {
  const existing = await em.findOne(DatabaseProject, { organizationId, name: SAMPLE_PROJECT });
  const location = (project: DatabaseProject) => ({ projectId: project.id, branchId: project.defaultBranchId, databaseName: DEFAULT_DATABASE });
  if (existing) return location(existing);
  const { project } = await provisionProject(services, em, organizationId, SAMPLE_PROJECT, services.config.databases.regions[0]!);
  const branch = await em.fork().findOneOrFail(DatabaseBranch, { id: project.defaultBranchId });
  const database = await em.fork().findOneOrFail(ManagedDatabase, { branchId: project.defaultBranchId, name: DEFAULT_DATABASE });
  await withBranchSession(services, em.fork(), { project, branch, database }, projectLogin(services, project), [], async (client) => {
    await client.query('BEGIN');
    for (const statement of SAMPLE_SQL) await client.query(statement);
    await client.query('COMMIT');
  });
  return location(project);
}
