import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { buildSchema } from 'graphql';
import { SchemaCatalog } from '../../mcp/platform/schema-catalog.js';
import { FakeStripe } from '../fakes/stripe-server.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream-server.js';
import { signUpVerified } from '../support/accounts.js';
import { createTestDataPlane, type TestDataPlane } from '../support/data-plane.js';
import { createTestProject, runSqlAs } from '../support/databases.js';
import { fundWallet } from '../support/funding.js';
import { httpClient, runCli, stdioClient, type ConnectedClient } from '../support/mcp.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { createPublisher } from '../support/publishers.js';
import { checkLedgerAfterEach, verifiedAgent } from '../support/wallet.js';
import { PAID_TOOLS, READ_ONLY_TOOLS, SPEC_TOOLS } from './tool-catalogue.js';

let t: TestPlatform;
let plane: TestDataPlane;
let upstream: FakeUpstream;
let stripe: FakeStripe;
let ownerToken: string;
let sqlPublisher: Record<string, any>;
let apiPublisher: Record<string, any>;

beforeAll(async () => {
  [upstream, stripe, plane] = await Promise.all([startFakeUpstream(), new FakeStripe().start(), createTestDataPlane()]);
  t = await startTestPlatform({
    ...plane.env,
    PROXY_ALLOW_PRIVATE_UPSTREAMS: 'true',
    STRIPE_SECRET_KEY: 'sk_test_mcp',
    STRIPE_WEBHOOK_SECRET: 'whsec_test_mcp',
    STRIPE_API_URL: stripe.url,
  });
  ownerToken = (await signUpVerified(t)).accessToken;
  // A SQL publisher on the owner's own database (12 rows), priced per row (its minimum, 0.002, applies) plus 10 %.
  const census = await createTestProject(t, ownerToken, 'census');
  await runSqlAs(t, ownerToken, census.project.id, census.project.default_branch_id, 'create table nums as select generate_series(1, 12) as n');
  sqlPublisher = await createPublisher(t, ownerToken, {
    name: 'Census SQL',
    description: 'Census population by county, queried with SQL',
    publisher_category: 'database',
    integration_type: null,
    database_type: 'postgresql',
    endpoints: null,
    api_url: null,
    api_key_header: null,
    upstream_api_key: null,
    project_id: census.project.id,
    branch_id: census.project.default_branch_id,
    database_name: 'app',
    database_config: { max_rows: 50 },
    gateway_fee_percent: '10',
    pricing: [{ pricing_model: 'per_row', base_price_per_1000_rows: '0.01', min_charge: '0.002', markup_multiplier: '1' }],
  });
  // An API publisher: 0.01 a call, 0.50 for its priced endpoint (0.55 with the fee: above the 0.10 threshold).
  apiPublisher = await createPublisher(t, ownerToken, {
    api_url: upstream.url,
    api_key_header: 'X-Api-Key',
    upstream_api_key: 'sk_upstream_secret',
    gateway_fee_percent: '10',
    endpoints: [
      { method: 'GET', path: '/echo/priced/{thing}', description: 'Priced echo', price: '0.50' },
      { method: 'GET', path: '/echo/{thing}', description: 'Echo' },
    ],
    pricing: [{ pricing_model: 'per_request', price_per_call: '0.01', markup_multiplier: '1' }],
  });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([upstream?.close(), stripe?.close(), plane?.drop()]);
});
checkLedgerAfterEach(() => t);

/** A funded agent with a verified e-mail (a card deposit needs one), acting with its API key. */
async function payingAgent(amount = '2.00') {
  const agent = await verifiedAgent(t);
  await fundWallet(t, agent.id, amount);
  return agent;
}

async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };
}

/** A successful call: its structured result, which the text repeats as JSON for older clients. */
async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await callTool(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

/** A tool error: the platform's code and message. */
async function toolError(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await callTool(client, name, args);
  expect(result.isError).toBe(true);
  return JSON.parse(result.content[0]!.text).error as { code: string; message: string };
}

/** Create a project, branch it, make a table, write, read, a transaction, explain, describe, suspend/start, delete. */
async function databaseSession(client: Client) {
  const created = await ok(client, 'create_project', { name: 'agent-app', region: 'local' });
  const projectId = created.project.id as string;
  expect(created.connection_uri).toMatch(/^postgres(ql)?:\/\//);
  const listed = (await ok(client, 'list_projects')).projects.find((project: any) => project.id === projectId);
  // A list shows each record's own fields; describe_project shows its branches too.
  expect([listed.name, listed.branches]).toEqual(['agent-app', undefined]);
  expect(await ok(client, 'describe_project', { project_id: projectId })).toMatchObject({ id: projectId, branches: [{ is_default: true }] });
  const main = (await ok(client, 'list_branches', { project_id: projectId })).branches[0];
  const branch = await ok(client, 'create_branch', { project_id: projectId, name: 'dev', parent_branch_id: main.id });
  const target = { project_id: projectId, branch_id: branch.id };
  expect((await ok(client, 'describe_branch', target)).id).toBe(branch.id);
  const database = (await ok(client, 'list_databases', target)).databases[0].name as string;
  const sql = { ...target, database };

  await ok(client, 'run_sql', { ...sql, query: 'create table notes (id serial primary key, body text not null)' });
  await ok(client, 'run_sql', { ...sql, query: "insert into notes (body) values ('first')" });
  await ok(client, 'run_sql_transaction', { ...sql, queries: ["insert into notes (body) values ('second')", "update notes set body = 'one' where body = 'first'"] });
  const read = await ok(client, 'run_sql', { ...sql, query: 'select body from notes order by id' });
  expect(read).toMatchObject({ rows: [{ body: 'one' }, { body: 'second' }], truncated: false });
  const explained = await ok(client, 'explain_sql_statement', { ...sql, query: "delete from notes where body = 'one'" });
  expect(JSON.stringify(explained.plan)).toContain('Plan');
  expect((await ok(client, 'run_sql', { ...sql, query: 'select count(*)::int as n from notes' })).rows).toEqual([{ n: 2 }]);
  expect(JSON.stringify((await ok(client, 'get_database_tables', sql)).tables)).toContain('notes');
  expect(JSON.stringify(await ok(client, 'describe_table_schema', { ...sql, table_name: 'notes' }))).toContain('body');

  // A branch comes with its read-write endpoint: asking for another is the platform's refusal, as a tool error.
  expect(await toolError(client, 'create_endpoint', { ...target, autoscaling_min: 1, autoscaling_max: 2 })).toMatchObject({ code: 'endpoint_exists' });
  const [endpoint] = (await ok(client, 'list_endpoints', target)).endpoints;
  expect(await ok(client, 'suspend_endpoint', { ...target, endpoint_id: endpoint.id })).toMatchObject({ id: endpoint.id, state: 'suspended' });
  expect(await ok(client, 'start_endpoint', { ...target, endpoint_id: endpoint.id })).toMatchObject({ id: endpoint.id, state: 'active' });
  expect((await ok(client, 'run_sql', { ...sql, query: 'select count(*)::int as n from notes' })).rows).toEqual([{ n: 2 }]);

  expect(await ok(client, 'delete_branch', target)).toEqual({ deleted: true, branch_id: branch.id });
  expect(await ok(client, 'delete_project', { project_id: projectId })).toEqual({ deleted: true, project_id: projectId });
  expect((await toolError(client, 'describe_project', { project_id: projectId })).code).toBe('project_not_found');
}

/** Find a publisher, estimate, run a paid query, pay for a priced call with confirm, read balance and history, deposit. */
async function payingSession(client: Client) {
  const found = await ok(client, 'list_agent_publishers', { search: 'census' });
  expect(found.publishers.map((publisher: any) => publisher.slug)).toContain(sqlPublisher.slug);
  const detail = await ok(client, 'get_agent_publisher', { slug: apiPublisher.slug });
  expect(detail.endpoints.map((endpoint: any) => endpoint.path)).toContain('/echo/priced/{thing}');

  const estimate = await ok(client, 'estimate_query_cost', { publisher: sqlPublisher.slug, query: 'select n from nums' });
  expect(estimate).toMatchObject({ estimated_cost: '0.0022', max_cost: '0.0022', currency: 'USD' });
  // By id: below the threshold it runs at once.
  const query = await ok(client, 'execute_paid_query', { publisher: sqlPublisher.id, query: 'select n from nums' });
  expect(query).toMatchObject({ status: 'completed', http_status: 200, charged: '0.0022', price: '0.0022' });
  expect(query.result.data.rows).toHaveLength(12);

  const asked = await ok(client, 'execute_paid_api', { publisher: apiPublisher.slug, path: '/echo/priced/aapl' });
  expect(asked).toMatchObject({ status: 'confirmation_required', price: '0.55' });
  expect(asked.message).toContain('confirm: true');
  expect((await ok(client, 'get_prepaid_balance')).balance).toBe('1.9978');
  const paid = await ok(client, 'execute_paid_api', { publisher: apiPublisher.slug, path: '/echo/priced/aapl?fields=bid', confirm: true });
  expect(paid).toMatchObject({ status: 'completed', http_status: 200, price: '0.55', charged: '0.55', balance_remaining: '1.4478' });
  expect(paid.result).toMatchObject({ path: '/echo/priced/aapl', query: { fields: 'bid' } });

  expect(await ok(client, 'get_prepaid_balance')).toMatchObject({ balance: '1.4478', available: '1.4478', currency: 'USD' });
  const history = await ok(client, 'get_transaction_history', { limit: 10 });
  expect(history.transactions.map((row: any) => [row.type, row.amount])).toEqual([
    ['charge', '-0.55'],
    ['charge', '-0.0022'],
    ['bonus', '2.00'],
  ]);
  const deposit = await ok(client, 'create_prepaid_deposit', { amount_usd: 5 });
  expect(deposit).toMatchObject({ checkout_url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\//), amount_usd: '5.00' });
  expect(stripe.sessions.get(deposit.session_id)).toMatchObject({ amount_total: 500, currency: 'usd' });
}

/** A project of the agent's, made through the platform's GraphQL: its main branch and database. */
async function projectOf(apiKey: string) {
  const made = await t.api.graphql('mutation { createProject(input: { name: "scratch", region: "local" }) { project { id defaultBranchId } } }', {}, { token: apiKey });
  const { id, defaultBranchId } = made.body.data!.createProject.project;
  return { project_id: id as string, branch_id: defaultBranchId as string, database: 'app' };
}

describe.each([
  ['stdio', (key: string) => stdioClient(t.platform.url, { API_KEY: key })],
  ['Streamable HTTP at /mcp', (key: string) => httpClient(t.platform.url, key)],
])('an agent session over %s', (_transport, connect) => {
  let connected: ConnectedClient;
  let agent: Awaited<ReturnType<typeof payingAgent>>;
  beforeAll(async () => {
    agent = await payingAgent();
    connected = await connect(agent.api_key);
  });
  afterAll(async () => connected?.close());

  it('lists exactly the 26 tools of the specification, with their required parameters, types and truthful annotations', async () => {
    const { tools } = await connected.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(SPEC_TOOLS).sort());
    for (const tool of tools) {
      const spec = SPEC_TOOLS[tool.name]!;
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
      expect([tool.name, [...(tool.inputSchema.required ?? [])].sort()]).toEqual([tool.name, [...spec.required].sort()]);
      expect([tool.name, Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, schema.type]))]).toEqual([tool.name, spec.types]);
      expect(tool.title && tool.description && tool.outputSchema?.type === 'object').toBeTruthy();
      expect([tool.name, tool.annotations?.readOnlyHint]).toEqual([tool.name, READ_ONLY_TOOLS.includes(tool.name)]);
      expect([tool.name, tool.annotations?.destructiveHint]).toEqual([tool.name, expect.any(Boolean)]);
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('delete_project')!.annotations?.destructiveHint).toBe(true);
    expect(byName.get('delete_branch')!.annotations?.destructiveHint).toBe(true);
    expect(byName.get('list_projects')!.annotations?.destructiveHint).toBe(false);
    for (const name of PAID_TOOLS) expect(byName.get(name)!.annotations?.openWorldHint).toBe(true);
    expect((byName.get('create_prepaid_deposit')!.inputSchema.properties as any).amount_usd.minimum).toBe(5);
  });

  it('pays through the marketplace: finds, estimates, queries, asks before an expensive call, pays it with confirm, reads the wallet, deposits', async () => {
    await payingSession(connected.client);
  });

  it('manages a database: project, branch, table, writes, reads, a transaction, explain, describe, endpoints, deletion', async () => {
    await databaseSession(connected.client);
  });

  it('answers a platform refusal (another organization\'s project is not found) as a tool error with its code, and a bad argument as invalid params naming the field', async () => {
    expect(await toolError(connected.client, 'get_agent_publisher', { slug: 'no-such-publisher' })).toMatchObject({ code: 'publisher_not_found' });
    const someoneElses = await projectOf((await payingAgent()).api_key);
    expect(await toolError(connected.client, 'describe_project', { project_id: someoneElses.project_id })).toMatchObject({ code: 'project_not_found' });
    expect(await toolError(connected.client, 'run_sql', { ...someoneElses, query: 'select 1' })).toMatchObject({ code: 'project_not_found' });
    const refused = await connected.client.callTool({ name: 'create_prepaid_deposit', arguments: { amount_usd: 4.99 } }).catch((error) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect([refused.code, refused.message]).toEqual([ErrorCode.InvalidParams, expect.stringContaining('amount_usd')]);
    const wrongType = await connected.client.callTool({ name: 'get_transaction_history', arguments: { limit: 'ten' } }).catch((error) => error);
    expect([wrongType.code, wrongType.message]).toEqual([ErrorCode.InvalidParams, expect.stringContaining('limit')]);
  });
});

describe('the stdio server', () => {
  it('exits 1 with one clear line on stderr, and nothing on stdout, without API_KEY', async () => {
    const result = await runCli(['start'], { API_URL: t.platform.url });
    expect(result).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^API_KEY is required[^\n]*\n$/) });
  });

  it('answers every tool call with the platform\'s refusal when the platform refuses its API_KEY', async () => {
    const connected = await stdioClient(t.platform.url, { API_KEY: 'ak_revoked_or_mistyped' });
    try {
      const wallet = await toolError(connected.client, 'get_prepaid_balance');
      expect(wallet.code).toMatch(/unauthorized|invalid/);
      expect(await toolError(connected.client, 'list_projects')).toEqual(wallet);
    } finally {
      await connected.close();
    }
  });

  it('in read-only mode offers no tool that writes, and refuses one called anyway', async () => {
    const agent = await payingAgent();
    const connected = await stdioClient(t.platform.url, { API_KEY: agent.api_key, MCP_READ_ONLY: 'true' });
    try {
      const names = (await connected.client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual([...READ_ONLY_TOOLS, 'run_sql', 'run_sql_transaction'].sort());
      const refused = await connected.client.callTool({ name: 'create_project', arguments: { name: 'x', region: 'local' } }).catch((error) => error);
      expect([refused.code, refused.message]).toEqual([ErrorCode.InvalidParams, expect.stringContaining('not offered')]);
      const paid = await connected.client.callTool({ name: 'execute_paid_api', arguments: { publisher: apiPublisher.slug } }).catch((error) => error);
      expect(paid.code).toBe(ErrorCode.InvalidParams);
      const target = await projectOf(agent.api_key);
      expect(await toolError(connected.client, 'run_sql', { ...target, query: 'create table t (x int)' })).toMatchObject({ code: 'read_only_query' });
      expect(await toolError(connected.client, 'run_sql_transaction', { ...target, queries: ['select 1', 'create table t (x int)'] })).toMatchObject({ code: 'read_only_query' });
      expect((await ok(connected.client, 'run_sql', { ...target, query: 'select 1 as one' })).rows).toEqual([{ one: 1 }]);
      expect(await ok(connected.client, 'get_database_tables', target)).toMatchObject({ tables: [] });
    } finally {
      await connected.close();
    }
  });

  it('offers only the toolsets of MCP_TOOLSETS, and holds project tools to MCP_PROJECT_ID', async () => {
    const agent = await payingAgent();
    const connected = await stdioClient(t.platform.url, { API_KEY: agent.api_key, MCP_TOOLSETS: 'wallet,projects', MCP_PROJECT_ID: 'project-a' });
    try {
      const names = (await connected.client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(['delete_project', 'describe_project', 'get_prepaid_balance', 'get_transaction_history', 'list_projects', 'create_prepaid_deposit'].sort());
      expect(await toolError(connected.client, 'describe_project', { project_id: 'project-b' })).toMatchObject({ code: 'project_out_of_scope' });
    } finally {
      await connected.close();
    }
  });

  it('caps rows at MCP_MAX_ROWS with truncated: true and how to page', async () => {
    const agent = await payingAgent();
    const connected = await stdioClient(t.platform.url, { API_KEY: agent.api_key, MCP_MAX_ROWS: '5' });
    try {
      const rows = await ok(connected.client, 'run_sql', { ...(await projectOf(agent.api_key)), query: 'select generate_series(1, 12) as n' });
      expect(rows).toMatchObject({ row_count: 12, truncated: true, hint: expect.stringContaining('LIMIT') });
      expect(rows.rows).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
      const query = await ok(connected.client, 'execute_paid_query', { publisher: sqlPublisher.slug, query: 'select n from nums' });
      expect([query.result.data.rows.length, query.truncated]).toEqual([5, true]);
      const listed = await ok(connected.client, 'list_agent_publishers', { limit: 50 });
      expect(listed.publishers.length).toBeLessThanOrEqual(5);
      const history = await ok(connected.client, 'get_transaction_history', { limit: 1 });
      expect(history).toMatchObject({ truncated: true, next_offset: 1, hint: expect.stringContaining('offset 1') });
      expect(history.transactions).toHaveLength(1);
    } finally {
      await connected.close();
    }
  });

  it('asks the person through form elicitation when the client offers it, and pays only on yes', async () => {
    const agent = await payingAgent();
    const connected = await stdioClient(t.platform.url, { API_KEY: agent.api_key }, { elicitation: { form: {} } });
    const answers = ['decline', 'accept'];
    const asked: string[] = [];
    connected.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      const action = answers.shift() as 'accept' | 'decline';
      return action === 'accept' ? { action, content: { confirm: true } } : { action };
    });
    try {
      const call = { publisher: apiPublisher.slug, path: '/echo/priced/msft' };
      expect(await ok(connected.client, 'execute_paid_api', call)).toMatchObject({ status: 'declined', price: '0.55' });
      expect(await ok(connected.client, 'execute_paid_api', call)).toMatchObject({ status: 'completed', charged: '0.55' });
      expect(asked).toEqual([expect.stringContaining('0.55 USD'), expect.stringContaining('0.55 USD')]);
    } finally {
      await connected.close();
    }
  });
});

describe('a platform without the databases part', () => {
  it('answers a tool error naming the field it lacks, never a made-up result', async () => {
    const catalog = new SchemaCatalog(buildSchema('type Query { wallet: Int }'));
    await expect(catalog.rootField('query', 'projects')).rejects.toMatchObject({ code: 'not_available', message: expect.stringContaining('projects') });
  });
});

describe('/mcp on the platform', () => {
  it('answers 401 with WWW-Authenticate without a credential, or with a bad one', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    for (const token of [undefined, 'ak_not_a_real_key']) {
      const response = await t.api.post('/mcp', body, { token, headers: { accept: 'application/json, text/event-stream' } });
      expect([response.status, response.headers.get('www-authenticate')]).toEqual([401, expect.stringMatching(/^Bearer /)]);
    }
  });

  it('narrows what it offers with query parameters, never widens', async () => {
    const agent = await payingAgent();
    const connected = await httpClient(t.platform.url, agent.api_key, '?toolsets=wallet&read_only=true');
    try {
      expect((await connected.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['get_prepaid_balance', 'get_transaction_history']);
    } finally {
      await connected.close();
    }
  });

  it('never charges more than the agreed price: a paid call above max_charge is refused, nothing held', async () => {
    const agent = await payingAgent();
    const call = 'mutation($input: CallPublisherInput!) { callPublisher(input: $input) { status chargeAmount } }';
    const input = { slug: apiPublisher.slug, path: '/echo/priced/ibm', maxCharge: '0.54' };
    const refused = await t.api.graphql(call, { input }, { token: agent.api_key });
    expect(refused.body.errors?.[0].extensions).toMatchObject({ code: 'price_above_limit', details: { price: '0.55', maxCharge: '0.54' } });
    expect((await t.api.get('/wallet/balance', { token: agent.api_key })).body.data).toMatchObject({ balance: '2.00', pending: '0.00' });
    const paid = await t.api.graphql(call, { input: { ...input, maxCharge: '0.55' } }, { token: agent.api_key });
    expect(paid.body.data?.callPublisher).toEqual({ status: 200, chargeAmount: '0.55' });
  });
});
