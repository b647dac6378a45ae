import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors.js';
import { COMMUNITY } from '../entities/cell.js';
import type { CommunityPrior } from '../types/results.js';
import { checkedTaskType } from '../types/task-type.js';
import { betaQuantile } from './intervals.js';
import { MAX_ID } from './validate-signals.js';

interface OrganizationRow {
  weight: number;
  successes: number;
  signals: string;
  clients: number;
  first_signal_at: Date;
  last_signal_at: Date;
}

/**
 * GET /eval/community-prior: Beta(1 + successes, 1 + failures) pooled over organizations, each
 * counted with recency weights (halving every EVAL_HALF_LIFE_DAYS) and scaled down to at most
 * EVAL_MAX_PSEUDO_COUNT_PER_ORG, so no organization (nor a swarm of its agents) outweighs that cap.
 */
export async function communityPrior(context: RequestContext, taskTypeValue: string | null | undefined, modelId: string | null | undefined): Promise<CommunityPrior> {
  requireIdentity(context);
  const taskType = checkedTaskType(taskTypeValue);
  if (!modelId) throw badRequest('missing_model_id', 'model_id is required');
  if (modelId.length > MAX_ID) throw badRequest('invalid_model_id', `model_id must be at most ${MAX_ID} characters`);
  const { halfLifeDays, maxPseudoCountPerOrg: cap } = context.services.config.eval;
  const rows: OrganizationRow[] = await context.em.execute(
    `select decayed_signals * eval_decay(now() - decayed_at, ?) as weight, decayed_success * eval_decay(now() - decayed_at, ?) as successes,
       signals, clients, first_signal_at, last_signal_at
     from eval_cell where task_type = ? and model_id = ? and organization_id <> ?`,
    [halfLifeDays * 86_400, halfLifeDays * 86_400, taskType, modelId, COMMUNITY],
  );
  let alpha = 1;
  let beta = 1;
  for (const row of rows) {
    const scale = row.weight > cap ? cap / row.weight : 1;
    alpha += row.successes * scale;
    beta += Math.max(0, row.weight - row.successes) * scale;
  }
  const times = (pick: (row: OrganizationRow) => Date) => rows.map((row) => new Date(pick(row)).getTime());
  return {
    taskType,
    modelId,
    alpha,
    beta,
    mean: alpha / (alpha + beta),
    low: betaQuantile(0.025, alpha, beta),
    high: betaQuantile(0.975, alpha, beta),
    signals: rows.reduce((sum, row) => sum + Number(row.signals), 0),
    clients: rows.reduce((sum, row) => sum + row.clients, 0),
    organizations: rows.length,
    effectiveSignals: alpha + beta - 2,
    maxPseudoCountPerOrganization: cap,
    halfLifeDays,
    windowStart: rows.length ? new Date(Math.min(...times((row) => row.first_signal_at))) : null,
    windowEnd: rows.length ? new Date(Math.max(...times((row) => row.last_signal_at))) : null,
  };
}
