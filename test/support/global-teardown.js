import { rmSync } from 'node:fs';
import pg from 'pg';

export default async function globalTeardown() {
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL;
  const template = process.env.TEST_TEMPLATE_DATABASE;
  if (adminUrl && template) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.end();
  }
  await globalThis.__embeddedPostgres?.stop();
  if (globalThis.__embeddedPostgresDir) rmSync(globalThis.__embeddedPostgresDir, { recursive: true, force: true });
}
