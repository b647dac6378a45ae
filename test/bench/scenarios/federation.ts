import type { EntityManager } from '@mikro-orm/postgresql';
import { readCatalogue } from '../../../subgraphs/marketplace/seed/seed-catalogue.js';
import { insertPublisher } from '../../../subgraphs/marketplace/services/manage-publishers.js';
import type { BenchRow, BenchScenario } from '../scenario.js';

const BULK = 200_000;
const UPSERTS = 400;

/**
 * Upserts through the API (each one appends to the publisher's hash chain under its lock), then
 * listings and history reads over 200,000 resources and history entries loaded set-based (for 100
 * other publishers), stats, and the chain's verification.
 */
export const federationScenario: BenchScenario = {
  name: 'federation',
  async run({ url, api, services, measure }) {
    const agent = (await api.post('/auth/agent', { name: 'federation-bench' })).body.data.agent;
    const headers = { authorization: `Bearer ${agent.api_key}`, 'content-type': 'application/json' };
    const em = services.orm.em.fork() as EntityManager;
    const template = readCatalogue()[0]!;
    const publisher = await em.transactional((tx) => insertPublisher(tx, services, agent.organization_id, { ...template, slug: 'federation-bench', name: 'Federation Bench' }));
    const started = Date.now();
    for (let i = 0; i < UPSERTS; i += 4) {
      await Promise.all([0, 1, 2, 3].map((j) =>
        api.post('/federation', { resource_type: 'dataset', external_id: `ds-${(i + j) % 100}`, title: `v${i + j}`, data: { i: i + j } }, { token: agent.api_key }),
      ));
    }
    const upsertsPerSecond = Math.round(UPSERTS / ((Date.now() - started) / 1000));
    await em.execute(
      `insert into fed_resource (id, publisher_id, resource_type, external_id, status, title, url, data, created_at, updated_at)
       select gen_random_uuid(), md5('pub' || (g % 100))::uuid, 'type-' || (g % 20), 'ext-' || g, case when g % 10 = 0 then 'archived' else 'active' end,
         'Resource ' || g, null, jsonb_build_object('n', g), now() - g * interval '1 second', now()
       from generate_series(1, ${BULK}) as g`,
    );
    await em.execute(
      `insert into fed_history (id, publisher_id, sequence, operation, resource_id, resource_type, external_id, before, after, actor_id, created_at, previous_hash, hash)
       select gen_random_uuid(), md5('pub' || (g % 100))::uuid, g / 100 + 1, 'insert', gen_random_uuid(), 'type-' || (g % 20), 'ext-' || g, null,
         jsonb_build_object('n', g), gen_random_uuid(), now() - g * interval '1 second', '', md5(g::text)
       from generate_series(0, ${BULK - 1}) as g`,
    );
    await em.execute('analyze fed_resource');
    await em.execute('analyze fed_history');
    const cases = [
      ['GET /federation (limit 50)', '/federation', false],
      ['GET /federation?resource_type=type-3&limit=100', '/federation?resource_type=type-3&limit=100', false],
      ['GET /federation/history (limit 50)', '/federation/history', false],
      ['GET /federation/history?publisher_slug= (one publisher)', '/federation/history?publisher_slug=federation-bench', false],
      ['GET /federation/stats (all publishers)', '/federation/stats', true],
      ['GET /federation/history/stats (all publishers)', '/federation/history/stats', true],
      [`GET /federation/history/verify (${UPSERTS}-entry chain)`, '/federation/history/verify?publisher_slug=federation-bench', true],
    ] as const;
    await measure({ url: `${url}${cases[0][1]}`, amount: 100 });
    const rows: BenchRow[] = [{ scenario: 'federation', case: `POST /federation upserts (4 at a time, one publisher)`, figures: { upserts_per_second: upsertsPerSecond, publisher: publisher.slug } }];
    for (const [label, path, heavy] of cases) {
      // Stats and verification are limited per caller (120 a minute): measured by a fixed number of calls.
      const load = heavy ? { amount: 100, connections: 4 } : { connections: 10, durationSeconds: 4 };
      rows.push({ scenario: 'federation', case: `${label} over ${BULK} rows`, measurement: await measure({ url: `${url}${path}`, ...load }) });
    }
    return rows;
  },
};
