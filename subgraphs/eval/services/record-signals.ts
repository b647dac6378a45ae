import type { EntityManager } from '@mikro-orm/postgresql';
import { requireIdentity, type Identity, type RequestContext } from '../../../shared/context.js';
import { retriedTransaction } from '../../../shared/db/retried-transaction.js';
import { COMMUNITY } from '../entities/cell.js';
import type { EvalSignalInput } from '../types/inputs.js';
import type { EvalSignalResult } from '../types/results.js';
import { validateSignals, type Signal } from './validate-signals.js';

interface StoredSignal {
  task_type: string;
  model_id: string;
  success: number;
  latency_ms: number | null;
  cost_micros: string | null;
  publisher_slug: string | null;
}

/** Stores the batch; a signal id this organization sent before (or twice in the batch) is skipped. */
async function insertSignals(em: EntityManager, identity: Identity, signals: Signal[]): Promise<StoredSignal[]> {
  const rows = signals.map((signal) => ({
    signal_id: signal.signalId,
    task_type: signal.taskType,
    model_id: signal.modelId,
    success: signal.success,
    latency_ms: signal.latencyMs,
    cost_micros: signal.costMicros,
    tokens: signal.tokens,
    publisher_slug: signal.publisherSlug,
  }));
  return em.execute(
    `insert into eval_signal (organization_id, client_id, signal_id, task_type, model_id, success, latency_ms, cost_micros, tokens, publisher_slug, created_at)
     select ?, ?, s.signal_id, s.task_type, s.model_id, s.success, s.latency_ms, s.cost_micros, s.tokens, s.publisher_slug, now()
     from jsonb_to_recordset(?::jsonb) as s(signal_id text, task_type text, model_id text, success float8, latency_ms float8,
       cost_micros bigint, tokens bigint, publisher_slug text)
     on conflict (organization_id, signal_id) do nothing
     returning task_type, model_id, success, latency_ms, cost_micros, publisher_slug`,
    [identity.organizationId, identity.userId, JSON.stringify(rows)],
  );
}

interface CellDelta {
  task_type: string;
  model_id: string;
  signals: number;
  success_sum: number;
  clients: number;
  latency_count: number;
  latency_sum: number;
  cost_count: number;
  cost_sum_micros: string;
}

function cellDeltas(stored: StoredSignal[]): CellDelta[] {
  const byCell = new Map<string, CellDelta & { cost: bigint }>();
  for (const signal of stored) {
    const key = `${signal.task_type}\u0000${signal.model_id}`;
    let delta = byCell.get(key);
    if (!delta) {
      delta = { task_type: signal.task_type, model_id: signal.model_id, signals: 0, success_sum: 0, clients: 0, latency_count: 0, latency_sum: 0, cost_count: 0, cost_sum_micros: '0', cost: 0n };
      byCell.set(key, delta);
    }
    delta.signals++;
    delta.success_sum += signal.success;
    if (signal.latency_ms !== null) {
      delta.latency_count++;
      delta.latency_sum += signal.latency_ms;
    }
    if (signal.cost_micros !== null) {
      delta.cost_count++;
      delta.cost += BigInt(signal.cost_micros);
    }
  }
  return [...byCell.values()].map(({ cost, ...delta }) => ({ ...delta, cost_sum_micros: cost.toString() }));
}

/** Marks the client as a reporter of each cell; a first report there counts one more client. */
async function countNewClients(em: EntityManager, identity: Identity, deltas: CellDelta[]): Promise<void> {
  const fresh: { task_type: string; model_id: string }[] = await em.execute(
    `insert into eval_cell_client (organization_id, task_type, model_id, client_id)
     select ?, k.task_type, k.model_id, ? from jsonb_to_recordset(?::jsonb) as k(task_type text, model_id text)
     order by k.task_type, k.model_id
     on conflict do nothing returning task_type, model_id`,
    [identity.organizationId, identity.userId, JSON.stringify(deltas.map(({ task_type, model_id }) => ({ task_type, model_id })))],
  );
  for (const cell of fresh) deltas.find((delta) => delta.task_type === cell.task_type && delta.model_id === cell.model_id)!.clients = 1;
}

/**
 * Adds the deltas to the organization's cells and the community's, in one statement, in key order
 * (so concurrent batches cannot deadlock). Decayed sums are brought to the later of the two times
 * before adding, whichever transaction's clock is ahead.
 */
async function addToCells(em: EntityManager, organizationId: string, deltas: CellDelta[], halfLifeSeconds: number): Promise<void> {
  const rows = [COMMUNITY, organizationId].flatMap((organization_id) => deltas.map((delta) => ({ organization_id, ...delta })));
  const decayed = (column: string) =>
    `c.${column} * eval_decay(excluded.decayed_at - c.decayed_at, ?) + excluded.${column} * eval_decay(c.decayed_at - excluded.decayed_at, ?)`;
  await em.execute(
    `insert into eval_cell as c (organization_id, task_type, model_id, signals, success_sum, clients, latency_count, latency_sum,
       cost_count, cost_sum_micros, decayed_signals, decayed_success, decayed_at, first_signal_at, last_signal_at)
     select d.organization_id, d.task_type, d.model_id, d.signals, d.success_sum, d.clients, d.latency_count, d.latency_sum,
       d.cost_count, d.cost_sum_micros, d.signals, d.success_sum, now(), now(), now()
     from jsonb_to_recordset(?::jsonb) as d(organization_id uuid, task_type text, model_id text, signals bigint, success_sum float8,
       clients int, latency_count bigint, latency_sum float8, cost_count bigint, cost_sum_micros bigint)
     order by d.organization_id, d.task_type, d.model_id
     on conflict (organization_id, task_type, model_id) do update set
       signals = c.signals + excluded.signals,
       success_sum = c.success_sum + excluded.success_sum,
       clients = c.clients + excluded.clients,
       latency_count = c.latency_count + excluded.latency_count,
       latency_sum = c.latency_sum + excluded.latency_sum,
       cost_count = c.cost_count + excluded.cost_count,
       cost_sum_micros = c.cost_sum_micros + excluded.cost_sum_micros,
       decayed_signals = ${decayed('decayed_signals')},
       decayed_success = ${decayed('decayed_success')},
       decayed_at = greatest(c.decayed_at, excluded.decayed_at),
       first_signal_at = least(c.first_signal_at, excluded.first_signal_at),
       last_signal_at = greatest(c.last_signal_at, excluded.last_signal_at)`,
    [JSON.stringify(rows), halfLifeSeconds, halfLifeSeconds, halfLifeSeconds, halfLifeSeconds],
  );
}

/** The community's totals per (task type, publisher) for signals that named a publisher. */
async function addToPublisherCells(em: EntityManager, stored: StoredSignal[]): Promise<void> {
  const byCell = new Map<string, { task_type: string; publisher_slug: string; signals: number; success_sum: number }>();
  for (const signal of stored) {
    if (signal.publisher_slug === null) continue;
    const key = `${signal.task_type}\u0000${signal.publisher_slug}`;
    const cell = byCell.get(key) ?? { task_type: signal.task_type, publisher_slug: signal.publisher_slug, signals: 0, success_sum: 0 };
    cell.signals++;
    cell.success_sum += signal.success;
    byCell.set(key, cell);
  }
  if (byCell.size === 0) return;
  await em.execute(
    `insert into eval_publisher_cell as c (task_type, publisher_slug, signals, success_sum)
     select d.task_type, d.publisher_slug, d.signals, d.success_sum
     from jsonb_to_recordset(?::jsonb) as d(task_type text, publisher_slug text, signals bigint, success_sum float8)
     order by d.task_type, d.publisher_slug
     on conflict (task_type, publisher_slug) do update set signals = c.signals + excluded.signals, success_sum = c.success_sum + excluded.success_sum`,
    [JSON.stringify([...byCell.values()])],
  );
}

/**
 * POST /eval/signals: one signal or a batch of up to 100, all or nothing. Replays (a signal id
 * the organization sent before) are accepted and counted once; the aggregates move in the same
 * transaction as the signals, so a read never sees one without the other.
 */
export async function recordSignals(context: RequestContext, inputs: EvalSignalInput[]): Promise<EvalSignalResult> {
  const identity = requireIdentity(context);
  const signals = validateSignals(inputs);
  const halfLifeSeconds = context.services.config.eval.halfLifeDays * 86_400;
  const recorded = await retriedTransaction(context.em, async (tx) => {
    const em = tx as EntityManager;
    const stored = await insertSignals(em, identity, signals);
    if (stored.length === 0) return 0;
    const deltas = cellDeltas(stored);
    await countNewClients(em, identity, deltas);
    await addToCells(em, identity.organizationId, deltas, halfLifeSeconds);
    await addToPublisherCells(em, stored);
    return stored.length;
  });
  return { received: signals.length, recorded, duplicates: signals.length - recorded };
}
