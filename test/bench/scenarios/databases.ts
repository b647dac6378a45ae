import type { Api } from '../../support/http.js';
import type { BenchRow, BenchScenario } from '../scenario.js';

const MB = 1024 * 1024;
/** Rows of about 300 bytes on disk each: (int, 256-character text) with tuple overhead. */
const ROWS_PER_STATEMENT = 200_000;

async function graphql(api: Api, token: string, query: string, variables: Record<string, unknown>) {
  const response = await api.graphql(query, variables, { token });
  if (response.body.errors) throw new Error(JSON.stringify(response.body.errors));
  return response.body.data;
}

async function sizeOf(api: Api, token: string, projectId: string, branchId: string): Promise<number> {
  const data = await graphql(api, token, 'query($p: ID!, $b: ID!) { branch(projectId: $p, branchId: $b) { sizeBytes } }', { p: projectId, b: branchId });
  return Number(data.branch.sizeBytes);
}

/** Fills the branch's `app` database until it holds at least `bytes`, in statements the timeout allows. */
async function growTo(api: Api, token: string, projectId: string, branchId: string, bytes: number, next: { row: number }): Promise<number> {
  const run = (query: string) => graphql(api, token, 'mutation($input: RunSqlInput!) { runSql(input: $input) { rowCount } }', { input: { projectId, branchId, database: 'app', query } });
  await run('create table if not exists filler (id bigint, pad text)');
  for (let size = await sizeOf(api, token, projectId, branchId); size < bytes; size = await sizeOf(api, token, projectId, branchId)) {
    await run(`insert into filler select i, repeat(md5(i::text), 8) from generate_series(${next.row}, ${next.row + ROWS_PER_STATEMENT - 1}) as i`);
    next.row += ROWS_PER_STATEMENT;
  }
  return sizeOf(api, token, projectId, branchId);
}

/**
 * Branching a 100 MB and a 1 GB database (CREATE DATABASE … TEMPLATE … STRATEGY FILE_COPY on the
 * embedded PostgreSQL 18, file_copy_method = clone: copy_file_range, copy-on-write where the
 * filesystem can): the wall time of createBranch and how long the parent refused connections.
 * Then SQL round trips per second through GraphQL (runSql `select 1`, as many connections as a
 * project may run statements at once).
 */
export const databasesScenario: BenchScenario = {
  name: 'databases',
  async run({ url, api, measure, services }) {
    const agent = await api.post('/auth/agent', { name: 'bench-databases' });
    const token = agent.body.data.agent.api_key as string;
    const created = await graphql(api, token, 'mutation { createProject(input: { name: "bench" }) { project { id defaultBranchId } } }', {});
    const projectId = created.createProject.project.id as string;
    const main = created.createProject.project.defaultBranchId as string;
    const rows: BenchRow[] = [];
    const next = { row: 1 };
    for (const [label, target] of [['100 MB', 100 * MB], ['1 GB', 1024 * MB]] as const) {
      const size = await growTo(api, token, projectId, main, target, next);
      const started = performance.now();
      const branch = await graphql(api, token, 'mutation($input: CreateBranchInput!) { createBranch(input: $input) { id parentPauseMs } }', {
        input: { projectId, name: `copy-${label.replace(' ', '')}` },
      });
      const wallMs = Math.round(performance.now() - started);
      rows.push({
        scenario: 'databases',
        case: `branch a ${label} database`,
        figures: { 'size MB': Math.round(size / MB), 'createBranch ms': wallMs, 'parent paused ms': branch.createBranch.parentPauseMs },
      });
      await graphql(api, token, 'mutation($p: ID!, $b: ID!) { deleteBranch(projectId: $p, branchId: $b) }', { p: projectId, b: branch.createBranch.id });
    }
    const body = JSON.stringify({
      query: 'mutation($input: RunSqlInput!) { runSql(input: $input) { rowCount } }',
      variables: { input: { projectId, branchId: main, database: 'app', query: 'select 1' } },
    });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const connections = services.config.databases.maxConcurrentPerProject;
    await measure({ url: `${url}/graphql`, method: 'POST', headers, body, amount: 200, connections });
    const sql = await measure({ url: `${url}/graphql`, method: 'POST', headers, body, connections, durationSeconds: 5 });
    rows.push({ scenario: 'databases', case: `GraphQL runSql select 1 (${connections} connections)`, measurement: sql });
    await graphql(api, token, 'mutation($p: ID!) { deleteProject(projectId: $p) }', { p: projectId });
    return rows;
  },
};
