import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { COMMUNITY } from '../entities/cell.js';
import type { EvalMatrix } from '../types/results.js';
import { summaryOf, type CellRow } from './cell-summary.js';
import { recommend } from './recommend.js';

/**
 * GET /eval/matrix: the caller's organization's cells and the community's, read from the running
 * aggregates (a handful of rows, however many signals there are), with recommendations.
 */
export async function readMatrix(context: RequestContext): Promise<EvalMatrix> {
  const { organizationId } = requireIdentity(context);
  const minSignals = context.services.config.eval.minSignals;
  const rows: CellRow[] = await context.em.execute(
    `select organization_id, task_type, model_id, signals, success_sum, clients, latency_count, latency_sum, cost_count, cost_sum_micros, last_signal_at
     from eval_cell where organization_id in (?, ?) order by task_type, model_id`,
    [organizationId, COMMUNITY],
  );
  const organization = rows.filter((row) => row.organization_id === organizationId).map((row) => summaryOf(row, minSignals));
  const community = rows.filter((row) => row.organization_id === COMMUNITY).map((row) => summaryOf(row, minSignals));
  return { organization, community, recommendations: recommend(organization, community, minSignals), minSignals };
}
