import type { DataPlane } from './data-plane.js';
import { quoteIdentifier as q, quoteLiteral } from './names.js';

/**
 * A login role that can read the database's `schema` and nothing else: CONNECT on this database,
 * USAGE on the schema, SELECT on its tables now and on those its owner creates later. No write
 * privilege anywhere, no membership in any role.
 */
export async function createReaderRole(plane: DataPlane, input: { reader: string; password: string; database: string; owner: string; schema: string }): Promise<void> {
  await plane.admin.query(`CREATE ROLE ${q(input.reader)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${quoteLiteral(input.password)}`);
  await plane.admin.query(`GRANT ${q(input.reader)} TO ${q(plane.adminRole)}`);
  await plane.admin.query(`GRANT CONNECT ON DATABASE ${q(input.database)} TO ${q(input.reader)}`);
  await plane.asAdminOn(input.database, async (client) => {
    await client.query(`SET ROLE ${q(input.owner)}`);
    await client.query(`GRANT USAGE ON SCHEMA ${q(input.schema)} TO ${q(input.reader)}`);
    await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${q(input.schema)} TO ${q(input.reader)}`);
    await client.query(`ALTER DEFAULT PRIVILEGES FOR ROLE ${q(input.owner)} IN SCHEMA ${q(input.schema)} GRANT SELECT ON TABLES TO ${q(input.reader)}`);
  });
}
