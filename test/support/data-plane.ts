import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDataPlane {
  /** Settings for startTestPlatform: a data plane of its own on the test server. */
  env: Record<string, string>;
  /** The role the platform manages the data plane as (CREATEDB, CREATEROLE, not a superuser). */
  adminUrl: string;
  /** Runs SQL as the server's superuser (to look at the data plane from outside). */
  superuser<T>(work: (client: pg.Client) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
}

/**
 * The test server as the data plane, through a dedicated role with CREATEDB and CREATEROLE only
 * (as production's DATA_PLANE_DATABASE_URL); every database and role it creates starts with a
 * prefix of its own, so parallel runs never meet, and all of them are dropped afterwards.
 */
export async function createTestDataPlane(): Promise<TestDataPlane> {
  const serverUrl = process.env.TEST_ADMIN_DATABASE_URL;
  if (!serverUrl) throw new Error('The jest global setup did not run');
  const prefix = `t${randomBytes(4).toString('hex')}_`;
  const admin = `${prefix}admin`;
  const password = randomBytes(12).toString('hex');
  const superuser = async <T>(work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  await superuser((client) => client.query(`CREATE ROLE ${admin} LOGIN CREATEDB CREATEROLE PASSWORD '${password}'`));
  const url = new URL(serverUrl);
  url.username = admin;
  url.password = password;
  url.pathname = '/postgres';
  return {
    env: { DATA_PLANE_DATABASE_URL: url.toString(), DATA_PLANE_NAME_PREFIX: prefix },
    adminUrl: url.toString(),
    superuser,
    drop: () =>
      superuser(async (client) => {
        const databases = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
        for (const { datname } of databases.rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
        const roles = await client.query<{ rolname: string }>('SELECT rolname FROM pg_roles WHERE starts_with(rolname, $1) ORDER BY rolname = $2', [prefix, admin]);
        for (const { rolname } of roles.rows) await client.query(`DROP ROLE IF EXISTS "${rolname}"`);
      }),
  };
}
