import { formatMoney } from '../../../shared/money.js';
import type { TaskType } from '../types/task-type.js';
import type { EvalCellSummary } from '../types/results.js';
import { wilsonInterval } from './intervals.js';

export interface CellRow {
  organization_id: string;
  task_type: string;
  model_id: string;
  signals: string;
  success_sum: number;
  clients: number;
  latency_count: string;
  latency_sum: number;
  cost_count: string;
  cost_sum_micros: string;
  last_signal_at: Date;
}

/** A summary plus the mean cost in micro-dollars, which recommendations compare (never a float). */
export type Summary = EvalCellSummary & { meanCostMicros: bigint | null };

export function summaryOf(row: CellRow, minSignals: number): Summary {
  const signals = Number(row.signals);
  const latencyCount = Number(row.latency_count);
  const costCount = BigInt(row.cost_count);
  const meanCostMicros = costCount > 0n ? BigInt(row.cost_sum_micros) / costCount : null;
  return {
    taskType: row.task_type as TaskType,
    modelId: row.model_id,
    signals,
    clients: row.clients,
    successRate: { rate: signals > 0 ? row.success_sum / signals : 0, ...wilsonInterval(row.success_sum, signals) },
    meanLatencyMs: latencyCount > 0 ? row.latency_sum / latencyCount : null,
    meanCost: meanCostMicros === null ? null : formatMoney(meanCostMicros),
    meanCostMicros,
    sufficient: signals >= minSignals,
    lastSignalAt: new Date(row.last_signal_at),
  };
}
