import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { registerAgent } from '../support/accounts.js';
import { createTestDataPlane, type TestDataPlane } from '../support/data-plane.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let plane: TestDataPlane;
let token: string;

beforeAll(async () => {
  plane = await createTestDataPlane();
  t = await startTestPlatform(plane.env);
  token = (await registerAgent(t)).api_key;
});

afterAll(async () => {
  await t?.close();
  await plane?.drop();
});

async function gql(query: string, variables: Record<string, unknown> = {}, as = token) {
  const response = await t.api.graphql(query, variables, { token: as });
  return response.body;
}

async function createProject(name = 'shop', as = token) {
  const body = await gql('mutation($input: CreateProjectInput!) { createProject(input: $input) { project { id defaultBranchId } connectionUri password } }', { input: { name } }, as);
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data.createProject as { project: { id: string; defaultBranchId: string }; connectionUri: string; password: string };
}

const sql = (projectId: string, branchId: string, query: string, as = token) =>
  t.api.post(`/projects/${projectId}/branches/${branchId}/sql`, { database: 'app', query }, { token: as });

describe('projects and branches on real PostgreSQL', () => {
  it('a branch sees its parent’s rows at creation, then each diverges; a branch of a branch copies the branch', async () => {
    const { project } = await createProject();
    const main = project.defaultBranchId;
    const made = await sql(project.id, main, 'create table items (id bigint primary key, name text)');
    expect(made.body).toMatchObject({ data: { command: 'CREATE' } });
    expect((await sql(project.id, main, "insert into items values (1, 'one'), (2, 'two')")).body.data).toMatchObject({ row_count: 2, command: 'INSERT' });

    const created = await t.api.post(`/projects/${project.id}/branches`, { name: 'dev' }, { token });
    expect(created.status).toBe(201);
    const dev = created.body.data;
    expect(dev).toMatchObject({ name: 'dev', parent_branch_id: main, is_default: false });
    expect(typeof dev.parent_pause_ms).toBe('number');
    expect(dev.parent_lsn).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);

    const rows = await sql(project.id, dev.id, 'select id, name from items order by id');
    expect(rows.body.data.rows).toEqual([{ id: '1', name: 'one' }, { id: '2', name: 'two' }]);

    await sql(project.id, dev.id, "insert into items values (3, 'three')");
    await sql(project.id, main, 'delete from items where id = 1');
    expect((await sql(project.id, dev.id, 'select count(*) from items')).body.data.rows).toEqual([{ count: '3' }]);
    expect((await sql(project.id, main, 'select count(*) from items')).body.data.rows).toEqual([{ count: '1' }]);

    const grandchild = await t.api.post(`/projects/${project.id}/branches`, { name: 'dev/feature', parent_branch_id: dev.id }, { token });
    expect(grandchild.status).toBe(201);
    expect((await sql(project.id, grandchild.body.data.id, 'select count(*) from items')).body.data.rows).toEqual([{ count: '3' }]);

    expect((await t.api.delete(`/projects/${project.id}/branches/${dev.id}`, { token })).body.error.code).toBe('branch_has_children');
    expect((await t.api.delete(`/projects/${project.id}/branches/${main}`, { token })).body.error.code).toBe('default_branch');
    expect((await t.api.delete(`/projects/${project.id}/branches/${grandchild.body.data.id}`, { token })).status).toBe(204);
    expect((await t.api.delete(`/projects/${project.id}/branches/${dev.id}`, { token })).status).toBe(204);
  });

  it('creates a project with a generated password shown once, and deleting it drops its databases and role, ending sessions', async () => {
    const created = await createProject('doomed');
    expect(created.connectionUri).toContain(encodeURIComponent(created.password));
    const described = await gql('query($id: ID!) { project(projectId: $id) { roleName connectionHost connectionPort sizeBytes branches { name isDefault endpoints { state } } } }', { id: created.project.id });
    expect(described.data.project).toMatchObject({ connectionHost: '127.0.0.1', connectionPort: 5432, branches: [{ name: 'main', isDefault: true, endpoints: [{ state: 'active' }] }] });
    expect(Number(described.data.project.sizeBytes)).toBeGreaterThan(0);
    expect(JSON.stringify(described)).not.toContain(created.password);
    const revealed = await t.api.post(`/projects/${created.project.id}/reveal-password`, {}, { token });
    expect(revealed.body.data).toEqual({ password: created.password });
    expect((await t.api.post('/projects', { name: 'elsewhere', region: 'mars-1' }, { token })).body.error.code).toBe('invalid_region');

    const role = described.data.project.roleName;
    const database = new URL(created.connectionUri).pathname.slice(1);
    const session = new pg.Client({ connectionString: created.connectionUri });
    session.on('error', () => undefined);
    await session.connect();
    expect((await t.api.delete(`/projects/${created.project.id}`, { token })).status).toBe(204);
    await expect(session.query('select 1')).rejects.toThrow();
    await session.end().catch(() => undefined);
    const left = await plane.superuser(async (client) => ({
      databases: (await client.query('select 1 from pg_database where datname = $1', [database])).rowCount,
      roles: (await client.query('select 1 from pg_roles where rolname = $1', [role])).rowCount,
    }));
    expect(left).toEqual({ databases: 0, roles: 0 });
    expect((await t.api.get(`/projects/${created.project.id}`, { token })).body.error.code).toBe('project_not_found');
  });

  it('two branches of one name at once: one is made, the other is 409 branch_exists and leaves no database behind', async () => {
    const { project } = await createProject('twins');
    const prefix = plane.env.DATA_PLANE_NAME_PREFIX!;
    const databasesNow = () =>
      plane.superuser(async (client) => Number((await client.query('select count(*) from pg_database where starts_with(datname, $1)', [prefix])).rows[0].count));
    const before = await databasesNow();
    const answers = await Promise.all([1, 2].map(() => t.api.post(`/projects/${project.id}/branches`, { name: 'twin' }, { token })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.error.code).toBe('branch_exists');
    expect(await databasesNow()).toBe(before + 1);
  });

  it('refuses empty SQL input with 400, never 500', async () => {
    const { project } = await createProject('empty');
    const branch = `/projects/${project.id}/branches/${project.defaultBranchId}`;
    const none = await t.api.post(`${branch}/sql/transaction`, { database: 'app', queries: [] }, { token });
    expect([none.status, none.body.error.code]).toEqual([400, 'invalid_queries']);
    const blank = await sql(project.id, project.defaultBranchId, '   ');
    expect([blank.status, blank.body.error.code]).toEqual([400, 'empty_query']);
  });
});
