const CELL = `taskType modelId signals clients successRate { rate low high } meanLatencyMs meanCost sufficient lastSignalAt`;

/** A matrix cell: never a rate without its count and interval. */
export const evalFragments: Record<string, string> = {
  EvalCellFields: `fragment EvalCellFields on EvalCellSummary { ${CELL} }`,
};
