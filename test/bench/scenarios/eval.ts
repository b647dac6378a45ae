import type { EntityManager } from '@mikro-orm/postgresql';
import { COMMUNITY } from '../../../subgraphs/eval/entities/cell.js';
import { TASK_TYPES } from '../../../subgraphs/eval/types/task-type.js';
import type { BenchRow, BenchScenario } from '../scenario.js';

const SIGNALS = 1_000_000;
const ORGANIZATIONS = 2_000;
const MODELS = 40;
/** Each organization uses a few models (its own mix); the community sees all of them. */
const MODELS_PER_ORGANIZATION = 5;

/**
 * One million stored signals (2,000 organizations, each on 10 task types x 5 of 40 models), loaded set-based,
 * with the aggregates the incremental path keeps; then the matrix, the community prior of a cell
 * every organization reported on, and ingestion of batches of 100.
 */
export const evalScenario: BenchScenario = {
  name: 'eval',
  async run({ url, api, services, measure }) {
    const agent = (await api.post('/auth/agent', { name: 'eval-bench' })).body.data.agent;
    const headers = { authorization: `Bearer ${agent.api_key}`, 'content-type': 'application/json' };
    const em = services.orm.em.fork() as EntityManager;
    const started = Date.now();
    // Organization 0 is the bench agent's; the others are generated ids.
    await em.execute(
      `insert into eval_signal (organization_id, client_id, task_type, model_id, success, latency_ms, cost_micros, created_at)
       select case when o = 0 then ?::uuid else md5('org' || o)::uuid end, md5('client' || o || (g % 3))::uuid,
         (array[${TASK_TYPES.map((type) => `'${type}'`).join(', ')}])[1 + (g / ${ORGANIZATIONS}) % 10],
         'model-' || ((o + (g / (${ORGANIZATIONS} * 10)) % ${MODELS_PER_ORGANIZATION}) % ${MODELS}),
         (random() < 0.7)::int, 50 + random() * 500, (random() * 5000)::bigint, now() - random() * interval '60 days'
       from generate_series(0, ${SIGNALS - 1}) as g, lateral (select g % ${ORGANIZATIONS} as o) as org`,
      [agent.organization_id],
    );
    const loadSeconds = (Date.now() - started) / 1000;
    await em.execute(
      `insert into eval_cell_client (organization_id, task_type, model_id, client_id)
       select distinct organization_id, task_type, model_id, client_id from eval_signal`,
    );
    const totals = `count(*), sum(success), count(distinct client_id), count(latency_ms), coalesce(sum(latency_ms), 0), count(cost_micros),
      coalesce(sum(cost_micros), 0), count(*), sum(success), max(created_at), min(created_at), max(created_at)`;
    await em.execute(
      `insert into eval_cell (organization_id, task_type, model_id, signals, success_sum, clients, latency_count, latency_sum, cost_count,
         cost_sum_micros, decayed_signals, decayed_success, decayed_at, first_signal_at, last_signal_at)
       select organization_id, task_type, model_id, ${totals} from eval_signal group by 1, 2, 3
       union all
       select ?::uuid, task_type, model_id, ${totals} from eval_signal group by 2, 3`,
      [COMMUNITY],
    );
    await em.execute('analyze eval_signal');
    await em.execute('analyze eval_cell');
    const [cells] = await em.execute('select count(*)::int as n from eval_cell');
    // The database's share of a matrix read: the caller's cells and the community's, by primary key.
    const sqlStarted = performance.now();
    for (let i = 0; i < 50; i++) {
      await em.execute('select * from eval_cell where organization_id in (?, ?)', [agent.organization_id, COMMUNITY]);
    }
    const matrixSqlMs = Math.round(((performance.now() - sqlStarted) / 50) * 100) / 100;
    const matrixUrl = `${url}/eval/matrix`;
    await measure({ url: matrixUrl, headers, amount: 200 });
    // One caller at a time gives the latency of one read (the target); ten show the throughput.
    const matrixAlone = await measure({ url: matrixUrl, headers, connections: 1, durationSeconds: 5 });
    const matrix = await measure({ url: matrixUrl, headers, connections: 10, durationSeconds: 5 });
    const priorUrl = `${url}/eval/community-prior?task_type=code&model_id=model-1`;
    const prior = await measure({ url: priorUrl, headers, connections: 10, durationSeconds: 5 });
    const batch = JSON.stringify({
      signals: Array.from({ length: 100 }, (_, i) => ({ task_type: TASK_TYPES[i % 10], model_id: `model-${i % 5}`, outcome: i % 4 ? 'success' : 'failure', latency_ms: 120, cost: '0.001' })),
    });
    const ingest = await measure({ url: `${url}/eval/signals`, method: 'POST', headers, body: batch, connections: 4, durationSeconds: 5 });
    const rows: BenchRow[] = [
      { scenario: 'eval', case: `load ${SIGNALS} signals (set-based)`, figures: { seconds: loadSeconds, aggregate_cells: cells.n } },
      { scenario: 'eval', case: 'matrix SQL read alone (caller + community cells)', figures: { mean_ms: matrixSqlMs } },
      { scenario: 'eval', case: `GET /eval/matrix with ${SIGNALS} stored signals, 1 connection`, measurement: matrixAlone },
      { scenario: 'eval', case: `GET /eval/matrix with ${SIGNALS} stored signals, 10 connections`, measurement: matrix },
      { scenario: 'eval', case: `GET /eval/community-prior (${ORGANIZATIONS} organizations on the cell)`, measurement: prior },
      { scenario: 'eval', case: 'POST /eval/signals (batches of 100)', measurement: ingest, figures: { signals_per_second: ingest.requestsPerSecond * 100 } },
    ];
    return rows;
  },
};
