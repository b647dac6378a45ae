import { bodyObject, stringQuery, type RestRoute } from '../route.js';

/** "Evaluation" of the specification. */
export const evalRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/eval/signals',
    status: 201,
    document: 'mutation($input: EvalSignalBatchInput!) { recordEvalSignals(input: $input) { received recorded duplicates } }',
    // One signal, or a batch under `signals`.
    variables: (request) => {
      const body = bodyObject(request);
      return { input: { signals: 'signals' in body ? body.signals : [body] } };
    },
  },
  {
    method: 'GET',
    path: '/eval/matrix',
    document: `query { evalMatrix { minSignals organization { ...EvalCellFields } community { ...EvalCellFields }
      recommendations { taskType preference modelId basis rule evidence { ...EvalCellFields } } } }`,
  },
  {
    method: 'GET',
    path: '/eval/community-prior',
    document: `query($taskType: String, $modelId: String) { communityPrior(taskType: $taskType, modelId: $modelId) {
      taskType modelId alpha beta mean low high signals clients organizations effectiveSignals maxPseudoCountPerOrganization
      halfLifeDays windowStart windowEnd } }`,
    variables: (request) => ({ taskType: stringQuery(request, 'task_type'), modelId: stringQuery(request, 'model_id') }),
  },
];
