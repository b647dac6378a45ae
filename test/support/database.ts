import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { databaseUrlFor } from './database-url.js';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** A fresh, migrated database for one test file, cloned from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL;
  const template = process.env.TEST_TEMPLATE_DATABASE;
  if (!adminUrl || !template) throw new Error('The jest global setup did not run');
  const name = `acp_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (admin) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        return;
      } catch (error) {
        // Two clones starting at the same instant can collide on the template; try again.
        if (attempt >= 10) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  });
  return {
    name,
    url: databaseUrlFor(adminUrl, name),
    drop: () => withAdmin(async (admin) => void (await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}
