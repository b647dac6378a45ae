import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { grantAllowance, listAllowances, revokeAllowance } from '../services/allowances.js';
import { GrantAllowanceInput } from '../types/inputs.js';
import { AllowanceView } from '../types/results.js';

@Resolver()
export class AllowanceResolver {
  @Query(() => [AllowanceView], { description: 'The caller’s spending allowances to publishers, newest first' })
  spendingAllowances(@Ctx() context: RequestContext) {
    return listAllowances(context);
  }

  @Mutation(() => AllowanceView, { description: 'Lets a publisher charge the caller’s wallet up to an amount per month' })
  grantSpendingAllowance(
    @Arg('input', () => GrantAllowanceInput) input: GrantAllowanceInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() context: RequestContext,
  ) {
    return grantAllowance(context, input, idempotencyKey);
  }

  @Mutation(() => AllowanceView, { description: 'Revokes it at once' })
  revokeSpendingAllowance(@Arg('id', () => ID) id: string, @Ctx() context: RequestContext) {
    return revokeAllowance(context, id);
  }
}
