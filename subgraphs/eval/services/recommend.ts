import type { EvalRecommendation } from '../types/results.js';
import { RoutingPreference, type TaskType } from '../types/task-type.js';
import type { Summary } from './cell-summary.js';

interface Rule {
  text: (minSignals: number) => string;
  /** Cells this preference can choose among (already sufficient), best first. */
  rank: (cells: Summary[]) => Summary[];
}

const byLowerBound = (a: Summary, b: Summary) => b.successRate.low - a.successRate.low || b.signals - a.signals;

/** Cells whose interval reaches the best lower bound: not shown worse than the best at 95%. */
function asGoodAsBest(cells: Summary[]): Summary[] {
  const best = Math.max(...cells.map((cell) => cell.successRate.low));
  return cells.filter((cell) => cell.successRate.high >= best);
}

const compareBigint = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

const RULES: Record<RoutingPreference, Rule> = {
  [RoutingPreference.quality]: {
    text: (n) => `highest lower bound of the 95% success interval among models with at least ${n} signals`,
    rank: (cells) => [...cells].sort(byLowerBound),
  },
  [RoutingPreference.cost]: {
    text: (n) => `lowest mean cost among models with at least ${n} signals whose 95% success interval reaches the best model's lower bound`,
    rank: (cells) =>
      asGoodAsBest(cells)
        .filter((cell) => cell.meanCostMicros !== null)
        .sort((a, b) => compareBigint(a.meanCostMicros!, b.meanCostMicros!) || byLowerBound(a, b)),
  },
  [RoutingPreference.latency]: {
    text: (n) => `lowest mean latency among models with at least ${n} signals whose 95% success interval reaches the best model's lower bound`,
    rank: (cells) =>
      asGoodAsBest(cells)
        .filter((cell) => cell.meanLatencyMs !== null)
        .sort((a, b) => a.meanLatencyMs! - b.meanLatencyMs! || byLowerBound(a, b)),
  },
};

/**
 * Per task type and preference, the model the rule picks from the organization's own sufficient
 * cells, or from the community's when the organization has none that qualify.
 */
export function recommend(organization: Summary[], community: Summary[], minSignals: number): EvalRecommendation[] {
  const taskTypes = [...new Set([...organization, ...community].map((cell) => cell.taskType))].sort();
  const sufficientFor = (cells: Summary[], taskType: TaskType) => cells.filter((cell) => cell.taskType === taskType && cell.sufficient);
  return taskTypes.flatMap((taskType) =>
    Object.values(RoutingPreference).map((preference) => {
      const rule = RULES[preference];
      const own = rule.rank(sufficientFor(organization, taskType));
      const pooled = own.length > 0 ? own : rule.rank(sufficientFor(community, taskType));
      const chosen = pooled[0] ?? null;
      return {
        taskType,
        preference,
        modelId: chosen?.modelId ?? null,
        basis: chosen ? (own.length > 0 ? 'organization' : 'community') : null,
        rule: chosen ? rule.text(minSignals) : `no model has ${minSignals} signals${preference === 'quality' ? '' : ` and ${preference} data`} for this task type yet`,
        evidence: chosen,
      };
    }),
  );
}
