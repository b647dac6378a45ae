import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { registerAgent } from '../support/accounts.js';
import { createTestDataPlane, type TestDataPlane } from '../support/data-plane.js';
import { createTestProject, runSqlAs, type CreatedTestProject } from '../support/databases.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { suspendIdleEndpoints } from '../../subgraphs/databases/services/idle-sweep.js';
import { recordDatabaseUsage } from '../../subgraphs/databases/services/record-usage.js';
import type { UsageRecord } from '../../shared/ports.js';

let t: TestPlatform;
let plane: TestDataPlane;
let token: string;
let owned: CreatedTestProject;
let projectId: string;
let main: string;

beforeAll(async () => {
  plane = await createTestDataPlane();
  t = await startTestPlatform({
    ...plane.env,
    SQL_STATEMENT_TIMEOUT_MS: '1500',
    SQL_MAX_ROWS: '50',
    SQL_MAX_RESULT_BYTES: '4096',
    SQL_MAX_CONCURRENT_PER_PROJECT: '2',
    ENDPOINT_IDLE_SUSPEND_SECONDS: '60',
  });
  token = (await registerAgent(t)).api_key;
  owned = await createTestProject(t, token);
  projectId = owned.project.id;
  main = owned.project.default_branch_id;
});

afterAll(async () => {
  await t?.close();
  await plane?.drop();
});

const sql = (query: string, extra: Record<string, unknown> = {}) => runSqlAs(t, token, projectId, main, query, extra);
const branchPath = (branchId = main) => `/projects/${projectId}/branches/${branchId}`;

async function connectDirectly(uri: string, database?: string): Promise<pg.Client> {
  const url = new URL(uri);
  if (database) url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

async function refusalOf(work: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await work();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe('SQL', () => {
  it('maps PostgreSQL types faithfully: bigint and numeric as strings, timestamps ISO 8601, bytea base64', async () => {
    const response = await sql(
      `select 9007199254740993::bigint as big, 1.10::numeric as num, '2024-05-01 12:00:00.123456+02'::timestamptz as ts,
              '2024-05-01 12:00:00'::timestamp as local, '\\xdeadbeef'::bytea as bin, true as flag, 3 as small, 1.5::float8 as real,
              '{"a": 1}'::jsonb as doc, array[1, 2] as list, array[10000000000]::bigint[] as bigs, null::text as nothing, 'NaN'::float8 as nan`,
    );
    expect(response.status).toBe(200);
    expect(response.body.data.rows).toEqual([
      {
        big: '9007199254740993', num: '1.10', ts: '2024-05-01T10:00:00.123456Z', local: '2024-05-01T12:00:00', bin: '3q2+7w==', flag: true, small: 3,
        real: 1.5, doc: { a: 1 }, list: [1, 2], bigs: ['10000000000'], nothing: null, nan: 'NaN',
      },
    ]);
    expect(response.body.data.fields.slice(0, 3)).toEqual([
      { name: 'big', data_type_name: 'bigint' },
      { name: 'num', data_type_name: 'numeric' },
      { name: 'ts', data_type_name: 'timestamp with time zone' },
    ]);
    expect(response.body.data).toMatchObject({ row_count: 1, truncated: false, command: 'SELECT' });
  });

  it('answers SQL errors as 400 sql_error with SQLSTATE, message, position and hint', async () => {
    const response = await sql('select * from no_such_table');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('sql_error');
    expect(response.body.error.message).toContain('42P01');
    const graphql = await t.api.graphql(
      'mutation($input: RunSqlInput!) { runSql(input: $input) { rowCount } }',
      { input: { projectId, branchId: main, database: 'app', query: 'select * from no_such_table' } },
      { token },
    );
    expect(graphql.body.errors?.[0].extensions).toMatchObject({
      code: 'sql_error',
      details: { sqlstate: '42P01', message: 'relation "no_such_table" does not exist', position: 15, hint: null },
    });
    expect((await sql('select 1; select 2')).body.error.code).toBe('sql_error');
  });

  it('runs a transaction all or nothing: a failing statement rolls back the ones before it', async () => {
    await sql('create table accounts (id int primary key, balance int not null)');
    const failed = await t.api.post(`${branchPath()}/sql/transaction`, {
      database: 'app',
      queries: ['insert into accounts values (1, 10)', 'insert into accounts values (2, 20)', 'insert into accounts values (1, 30)'],
    }, { token });
    expect(failed.status).toBe(400);
    expect(failed.body.error).toMatchObject({ code: 'sql_error' });
    expect(failed.body.error.message).toContain('statement 3');
    expect((await sql('select count(*) from accounts')).body.data.rows).toEqual([{ count: '0' }]);

    const done = await t.api.post(`${branchPath()}/sql/transaction`, {
      database: 'app',
      queries: ['insert into accounts values (1, 10), (2, 20)', 'update accounts set balance = balance + 1 returning id, balance'],
    }, { token });
    expect(done.status).toBe(200);
    expect(done.body.data.map((result: { row_count: number }) => result.row_count)).toEqual([2, 2]);
    expect(done.body.data[1].rows).toEqual([{ id: 1, balance: 11 }, { id: 2, balance: 21 }]);

    const control = await t.api.post(`${branchPath()}/sql/transaction`, { database: 'app', queries: ['delete from accounts', 'commit', 'select 1/0'] }, { token });
    expect(control.body.error.code).toBe('transaction_control_not_allowed');
    expect((await sql('select count(*) from accounts')).body.data.rows).toEqual([{ count: '2' }]);
  });

  it('explains a DELETE without deleting anything, even with analyze', async () => {
    await sql('create table notes (id int)');
    await sql('insert into notes select generate_series(1, 5)');
    for (const analyze of [false, true]) {
      const explained = await t.api.post(`${branchPath()}/sql/explain`, { database: 'app', query: 'delete from notes', analyze }, { token });
      expect(explained.status).toBe(200);
      expect(explained.body.data[0].Plan['Node Type']).toBe('ModifyTable');
    }
    expect((await sql('select count(*) from notes')).body.data.rows).toEqual([{ count: '5' }]);
  });

  it('refuses writes in read-only mode, even one that first asks for a read-write transaction', async () => {
    expect((await sql('insert into notes values (6)', { read_only: true })).body.error.code).toBe('read_only_query');
    const sneaky = await t.api.post(`${branchPath()}/sql/transaction`, {
      database: 'app',
      queries: ['set transaction read write', 'insert into notes values (7)'],
      read_only: true,
    }, { token });
    expect(sneaky.status).toBe(400);
    expect((await sql('select count(*) from notes')).body.data.rows).toEqual([{ count: '5' }]);
  });

  it('stops a statement at SQL_STATEMENT_TIMEOUT_MS and cuts results at SQL_MAX_ROWS and SQL_MAX_RESULT_BYTES', async () => {
    const slow = await sql('select pg_sleep(10)');
    expect(slow.status).toBe(400);
    expect(slow.body.error.message).toContain('57014');
    const many = await sql('select generate_series(1, 500) as n');
    expect(many.body.data).toMatchObject({ row_count: 50, truncated: true });
    const wide = await sql("select repeat('x', 1000) as text from generate_series(1, 10)");
    expect(wide.body.data.truncated).toBe(true);
    expect(wide.body.data.rows.length).toBeLessThan(5);
    // A session that turned its timeout off is never handed to the next request.
    await sql('set statement_timeout = 0');
    expect((await sql('select pg_sleep(10)')).status).toBe(400);
  });

  it('refuses SQL beyond the project’s concurrency cap with 429', async () => {
    const answers = await Promise.all([1, 2, 3, 4].map(() => sql('select pg_sleep(1)')));
    expect(answers.map((answer) => answer.status).filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(answers.find((answer) => answer.status === 429)!.body.error.code).toBe('sql_concurrency_limit');
  });

  it('lists tables and describes a table from the catalogue', async () => {
    await sql('create table orders (id bigserial primary key, account_id int not null references accounts (id), note text default \'none\', unique (note))');
    const tables = await t.api.get(`${branchPath()}/databases/app/tables`, { token });
    expect(tables.body.data.map((table: { name: string }) => table.name)).toEqual(['accounts', 'notes', 'orders']);
    const schema = await t.api.get(`${branchPath()}/databases/app/tables/orders`, { token });
    expect(schema.body.data.columns.map((column: { name: string; data_type: string; nullable: boolean }) => [column.name, column.data_type, column.nullable])).toEqual([
      ['id', 'bigint', false],
      ['account_id', 'integer', false],
      ['note', 'text', true],
    ]);
    expect(schema.body.data.foreign_keys).toEqual([
      { name: 'orders_account_id_fkey', columns: ['account_id'], referenced_schema: 'public', referenced_table: 'accounts', referenced_columns: ['id'] },
    ]);
    expect(schema.body.data.indexes.map((index: { name: string }) => index.name).sort()).toEqual(['orders_note_key', 'orders_pkey']);
    expect((await t.api.get(`${branchPath()}/databases/app/tables/nothing_here`, { token })).body.error.code).toBe('table_not_found');
  });
});

describe('databases of a branch', () => {
  it('creates and drops databases named as identifiers', async () => {
    expect((await t.api.post(`${branchPath()}/databases`, { name: 'Bad-Name' }, { token })).body.error.code).toBe('invalid_database_name');
    expect((await t.api.post(`${branchPath()}/databases`, { name: 'analytics' }, { token })).status).toBe(201);
    expect((await t.api.post(`${branchPath()}/databases`, { name: 'analytics' }, { token })).body.error.code).toBe('database_exists');
    const listed = await t.api.get(`${branchPath()}/databases`, { token });
    expect(listed.body.data.map((database: { name: string }) => database.name)).toEqual(['app', 'analytics']);
    expect((await t.api.delete(`${branchPath()}/databases/analytics`, { token })).status).toBe(204);
    expect((await t.api.get('/databases', { token })).body.data.map((row: { database: { name: string } }) => row.database.name)).toEqual(['app']);
  });
});

describe('compute endpoints', () => {
  it('a suspended endpoint refuses connections, starts again, and auto-starts on SQL', async () => {
    const [endpoint] = (await t.api.get(`${branchPath()}/endpoints`, { token })).body.data;
    expect(endpoint).toMatchObject({ state: 'active', autoscaling_min: 1, autoscaling_max: 1, auto_start: true, host: '127.0.0.1', role: owned.project.role_name });
    const session = await connectDirectly(owned.connection_uri);
    const suspended = await t.api.post(`${branchPath()}/endpoints/${endpoint.id}/suspend`, {}, { token });
    expect(suspended.body.data.state).toBe('suspended');
    await expect(session.query('select 1')).rejects.toThrow();
    await session.end().catch(() => undefined);
    expect(await refusalOf(() => connectDirectly(owned.connection_uri))).toBe('55000');

    expect((await t.api.post(`${branchPath()}/endpoints/${endpoint.id}/start`, {}, { token })).body.data.state).toBe('active');
    const again = await connectDirectly(owned.connection_uri);
    await again.end();

    await t.api.post(`${branchPath()}/endpoints/${endpoint.id}/suspend`, {}, { token });
    expect((await sql('select 1 as one')).body.data.rows).toEqual([{ one: 1 }]);
    expect((await t.api.get(`${branchPath()}/endpoints`, { token })).body.data[0].state).toBe('active');
  });

  it('an endpoint with auto-start off answers 409 endpoint_suspended; a branch without one 409 endpoint_not_found', async () => {
    const made = await t.api.post(`/projects/${projectId}/branches`, { name: 'manual', with_endpoint: false }, { token });
    expect(made.body).toMatchObject({ data: { name: 'manual' } });
    const branch = made.body.data;
    expect(branch.endpoints).toEqual([]);
    expect((await runSqlAs(t, token, projectId, branch.id, 'select 1')).body.error.code).toBe('endpoint_not_found');
    const bad = await t.api.post(`${branchPath(branch.id)}/endpoints`, { autoscaling_min: 4, autoscaling_max: 2 }, { token });
    expect(bad.body.error.code).toBe('invalid_autoscaling');
    const created = await t.api.post(`${branchPath(branch.id)}/endpoints`, { autoscaling_min: 2, autoscaling_max: 8, auto_start: false }, { token });
    expect(created.status).toBe(201);
    expect((await t.api.post(`${branchPath(branch.id)}/endpoints`, {}, { token })).body.error.code).toBe('endpoint_exists');
    expect((await runSqlAs(t, token, projectId, branch.id, 'select count(*) from notes')).body.data.rows).toEqual([{ count: '5' }]);
    await t.api.post(`${branchPath(branch.id)}/endpoints/${created.body.data.id}/suspend`, {}, { token });
    expect((await runSqlAs(t, token, projectId, branch.id, 'select 1')).body.error.code).toBe('endpoint_suspended');
    await t.api.post(`${branchPath(branch.id)}/endpoints/${created.body.data.id}/start`, {}, { token });
    expect((await runSqlAs(t, token, projectId, branch.id, 'select 1 as one')).body.data.rows).toEqual([{ one: 1 }]);
  });

  it('the idle sweep suspends an endpoint quiet for ENDPOINT_IDLE_SUSPEND_SECONDS, and only that one', async () => {
    const services = t.platform.services;
    expect(await suspendIdleEndpoints(services)).toBe(0);
    const inTwoMinutes = new Date(Date.now() + 120_000);
    expect(await suspendIdleEndpoints(services, inTwoMinutes)).toBeGreaterThan(0);
    expect((await t.api.get(`${branchPath()}/endpoints`, { token })).body.data[0].state).toBe('suspended');
    expect((await sql('select 1 as one')).status).toBe(200);
  });

  it('records compute seconds and storage byte-hours once per hour through the recordUsage port', async () => {
    const services = t.platform.services;
    const recorded = new Map<string, UsageRecord>();
    services.ports.recordUsage = async (_em, usage) => {
      if (recorded.has(usage.idempotencyKey)) return false;
      recorded.set(usage.idempotencyKey, usage);
      return true;
    };
    try {
      const inThreeHours = new Date(Date.now() + 3 * 3_600_000);
      expect(await recordDatabaseUsage(services, inThreeHours)).toBeGreaterThan(0);
      const records = [...recorded.values()];
      expect(new Set(records.map((usage) => usage.meter))).toEqual(new Set(['database.compute_seconds', 'database.storage_byte_hours']));
      const organizationId = (await registerAgent(t)).organization_id;
      expect(records.every((usage) => usage.organizationId !== organizationId)).toBe(true);
      const computeHours = records.filter((usage) => usage.meter === 'database.compute_seconds');
      for (const usage of computeHours) expect(Number(usage.quantity)).toBeLessThanOrEqual(3600 * 2);
      expect(await recordDatabaseUsage(services, inThreeHours)).toBe(0);
    } finally {
      delete services.ports.recordUsage;
    }
  });
});

describe('isolation between projects', () => {
  it('one project’s role cannot reach another’s database, dblink, programs or server files', async () => {
    const other = await createTestProject(t, token, 'other');
    const otherDatabase = new URL(other.connection_uri).pathname.slice(1);
    expect(await refusalOf(() => connectDirectly(owned.connection_uri, otherDatabase))).toBe('42501');
    const attempts = [
      'create extension dblink',
      "copy (select 1) to program 'id'",
      "select pg_read_file('/etc/hostname')",
      `set role ${other.project.role_name}`,
      "select pg_ls_dir('.')",
      'create database stolen',
      `alter role ${owned.project.role_name} superuser`,
    ];
    for (const query of attempts) {
      const answer = await sql(query);
      expect([query, answer.status, answer.body.error?.code]).toEqual([query, 400, 'sql_error']);
    }
  });

  it('answers 404 for another organization’s ids everywhere', async () => {
    const stranger = (await registerAgent(t)).api_key;
    const [endpoint] = (await t.api.get(`${branchPath()}/endpoints`, { token })).body.data;
    const base = branchPath();
    const requests: [string, string, unknown?][] = [
      ['GET', `/projects/${projectId}`],
      ['DELETE', `/projects/${projectId}`],
      ['POST', `/projects/${projectId}/reveal-password`],
      ['GET', `/projects/${projectId}/branches`],
      ['POST', `/projects/${projectId}/branches`, { name: 'mine' }],
      ['GET', base],
      ['DELETE', base],
      ['GET', `${base}/databases`],
      ['POST', `${base}/databases`, { name: 'x' }],
      ['DELETE', `${base}/databases/app`],
      ['GET', `${base}/databases/app/tables`],
      ['GET', `${base}/databases/app/tables/notes`],
      ['GET', `${base}/endpoints`],
      ['POST', `${base}/endpoints`, {}],
      ['POST', `${base}/endpoints/${endpoint.id}/start`],
      ['POST', `${base}/endpoints/${endpoint.id}/suspend`],
      ['POST', `${base}/sql`, { database: 'app', query: 'select 1' }],
      ['POST', `${base}/sql/transaction`, { database: 'app', queries: ['select 1'] }],
      ['POST', `${base}/sql/explain`, { database: 'app', query: 'select 1' }],
    ];
    for (const [method, path, body] of requests) {
      const answer = await t.api.request(method, path, body, { token: stranger });
      expect([method, path, answer.status, answer.body?.error?.code]).toEqual([method, path, 404, 'project_not_found']);
    }
    expect((await t.api.get('/projects', { token: stranger })).body.data).toEqual([]);
    expect((await t.api.get(`/projects/${projectId}/branches/00000000-0000-0000-0000-000000000000`, { token })).body.error.code).toBe('branch_not_found');
    expect((await t.api.post(`${base}/endpoints/not-a-uuid/start`, {}, { token })).body.error.code).toBe('endpoint_not_found');
    expect((await t.api.get(`/projects/${projectId}`, { token })).status).toBe(200);
  });
});
