import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { registerAgent } from '../support/accounts.js';
import { createTestProject, runSqlAs, type CreatedTestProject } from '../support/databases.js';
import { fundedAgent } from '../support/funding.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { createPublisher, publisherBody, uniqueSlug } from '../support/publishers.js';
import { seedCatalogue } from '../../subgraphs/marketplace/seed/seed-catalogue.js';

let t: TestPlatform;
let ownerToken: string;
let owned: CreatedTestProject;
let slug: string;

const balanceOf = async (token: string) => (await t.api.get('/wallet/balance', { token })).body.data.balance as string;
const ownerSql = (query: string) => runSqlAs(t, ownerToken, owned.project.id, owned.project.default_branch_id, query);

function databasePublisher(project: CreatedTestProject, overrides: Record<string, unknown> = {}) {
  return publisherBody({
    slug: uniqueSlug('rows'),
    publisher_category: 'database',
    integration_type: null,
    database_type: 'postgresql',
    api_url: null,
    api_key_header: null,
    upstream_api_key: null,
    endpoints: null,
    project_id: project.project.id,
    branch_id: project.project.default_branch_id,
    database_name: 'app',
    database_config: { max_rows: 400 },
    gateway_fee_percent: '10',
    pricing: [{ pricing_model: 'per_row', base_price_per_1000_rows: '1.00', markup_multiplier: '1.0', min_charge: '0.001' }],
    ...overrides,
  });
}

beforeAll(async () => {
  t = await startTestPlatform();
  ownerToken = (await registerAgent(t)).api_key;
  owned = await createTestProject(t, ownerToken, 'warehouse');
  await ownerSql('create table readings (id int primary key, value numeric not null)');
  await ownerSql('insert into readings select i, i * 1.5 from generate_series(1, 1000) as i');
  await ownerSql('create function bump() returns int language sql as $$ insert into readings values (5000, 1) returning 1 $$');
  await ownerSql('create schema private');
  await ownerSql("create table private.secrets (note text); insert into private.secrets values ('keep out')".split(';')[0]!);
  await ownerSql('analyze readings');
  slug = (await createPublisher(t, ownerToken, databasePublisher(owned))).slug;
});

afterAll(() => t?.close());

describe('paid database publishers', () => {
  it('publishes only its own organization’s databases (403 database_not_owned)', async () => {
    const stranger = (await registerAgent(t)).api_key;
    const refused = await t.api.post('/publishers', databasePublisher(owned), { token: stranger });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'database_not_owned']);
    const partial = await t.api.post('/publishers', databasePublisher(owned, { database_name: null }), { token: ownerToken });
    expect(partial.body.error.code).toBe('invalid_database_location');
  });

  it('charges exactly the per-row price of the rows returned, plus the fee', async () => {
    const caller = await fundedAgent(t, '1.00');
    const answer = await t.api.post(`/publishers/${slug}`, { query: 'select id, value from readings where id <= 250 order by id' }, { token: caller.api_key });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ row_count: 250, truncated: false, cost: '0.275' });
    expect(answer.body.data.rows[0]).toEqual({ id: 1, value: '1.5' });
    expect(answer.body.data.fields).toEqual([{ name: 'id', data_type_name: 'integer' }, { name: 'value', data_type_name: 'numeric' }]);
    expect(answer.headers.get('x-charge-amount')).toBe('0.275');
    expect(await balanceOf(caller.api_key)).toBe('0.725');

    const capped = await t.api.post(`/publishers/${slug}`, { query: 'select id from readings' }, { token: caller.api_key });
    expect(capped.body.data).toMatchObject({ row_count: 400, truncated: true, cost: '0.44' });
    // The hold is the most a query can cost (its row cap), within reserve_max_charge; the charge is what it returned.
    expect(await balanceOf(caller.api_key)).toBe('0.285');
    const refused = await t.api.post(`/publishers/${slug}`, { query: 'select 1 as one' }, { token: caller.api_key });
    expect([refused.status, refused.body.error.code]).toEqual([402, 'insufficient_balance']);
    const few = await t.api.post(`/publishers/${slug}`, { query: 'select 1 as one' }, { token: (await fundedAgent(t, '1.00')).api_key });
    expect(few.body.data.cost).toBe('0.0011');
  });

  it('refuses writes, even disguised, with 400 read_only_query and charges nothing', async () => {
    const caller = await fundedAgent(t, '1.00');
    const writes = [
      'delete from readings',
      'with gone as (delete from readings where id = 1 returning *) select * from gone',
      'select bump()',
      'select * from readings where id = 2 for update',
      `set role ${owned.project.role_name}`,
      '/* a comment first */ insert into readings values (9999, 1)',
      "select set_config('default_transaction_read_only', 'off', false), nextval('no_such_seq')",
    ];
    for (const query of writes) {
      const answer = await t.api.post(`/publishers/${slug}`, { query }, { token: caller.api_key });
      expect([query, answer.status, answer.body.error?.code]).toEqual([query, 400, expect.stringMatching(/^(read_only_query|sql_error)$/)]);
    }
    for (const query of writes.slice(0, 6)) {
      expect((await t.api.post(`/publishers/${slug}`, { query }, { token: caller.api_key })).body.error.code).toBe('read_only_query');
    }
    expect(await balanceOf(caller.api_key)).toBe('1.00');
    expect((await ownerSql('select count(*) from readings')).body.data.rows).toEqual([{ count: '1000' }]);
  });

  it('reads the published schema only, as a role without the owner’s rights', async () => {
    const caller = await fundedAgent(t, '1.00');
    const hidden = await t.api.post(`/publishers/${slug}`, { query: 'select * from private.secrets' }, { token: caller.api_key });
    expect([hidden.status, hidden.body.error.code]).toEqual([400, 'sql_error']);
    expect(hidden.body.error.message).toContain('42501');
    expect(await balanceOf(caller.api_key)).toBe('1.00');
  });

  it('estimates a query from the planner’s row estimate and says it is an estimate', async () => {
    const caller = await fundedAgent(t, '1.00');
    const publisherId = (await t.api.get(`/publishers/${slug}`)).body.data.id;
    const estimate = await t.api.post(`/publishers/${slug}/estimate`, { publisher_id: publisherId, query: 'select * from readings where id <= 100' }, { token: caller.api_key });
    expect(estimate.status).toBe(200);
    expect(estimate.body.data).toMatchObject({ basis: 'planner_estimate', pricing_model: 'per_row' });
    expect(estimate.body.data.estimated_rows).toBeGreaterThan(50);
    expect(estimate.body.data.estimated_rows).toBeLessThan(200);
    expect((await t.api.post(`/publishers/${slug}/estimate`, { publisher_id: publisherId, query: 'delete from readings' }, { token: caller.api_key })).body.error.code).toBe('read_only_query');
    expect(await balanceOf(caller.api_key)).toBe('1.00');
  });

  it('the seeded SQL publisher answers queries on a real seeded data set', async () => {
    await seedCatalogue(t.platform.services);
    const caller = await fundedAgent(t, '1.00');
    const answer = await t.api.post(
      '/publishers/open-census-sql',
      { query: 'select name, population from population_by_year where year = 2024 order by population desc limit 5' },
      { token: caller.api_key },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ row_count: 5, cost: '0.001122' });
    const counts = await t.api.post('/publishers/open-census-sql', { query: 'select (select count(*) from counties) as counties, (select count(*) from population_by_year) as populations' }, { token: caller.api_key });
    expect(counts.body.data.rows).toEqual([{ counties: '250', populations: '2500' }]);
  });
});
