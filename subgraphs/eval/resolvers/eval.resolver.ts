import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { communityPrior } from '../services/community-prior.js';
import { readMatrix } from '../services/read-matrix.js';
import { recordSignals } from '../services/record-signals.js';
import { EvalSignalBatchInput } from '../types/inputs.js';
import { CommunityPrior, EvalMatrix, EvalSignalResult } from '../types/results.js';

@Resolver()
export class EvalResolver {
  @Mutation(() => EvalSignalResult, { description: 'Records client signals (1 to 100, all or none; a replayed signal id counts once)' })
  recordEvalSignals(@Arg('input', () => EvalSignalBatchInput) input: EvalSignalBatchInput, @Ctx() context: RequestContext) {
    return recordSignals(context, input.signals);
  }

  @Query(() => EvalMatrix, { description: 'Success, latency and cost per task type and model, for the caller’s organization and the community' })
  evalMatrix(@Ctx() context: RequestContext) {
    return readMatrix(context);
  }

  @Query(() => CommunityPrior)
  communityPrior(
    @Arg('taskType', () => String, { nullable: true, description: 'A TaskType value (required)' }) taskType: string | null,
    @Arg('modelId', () => String, { nullable: true, description: 'Required' }) modelId: string | null,
    @Ctx() context: RequestContext,
  ) {
    return communityPrior(context, taskType, modelId);
  }
}
