import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { recoverAccount, requestRecoveryCode } from '../services/recovery.js';
import { RecoverAccountInput, RecoveryRequestInput } from '../types/inputs.js';
import { RecoveredAccount, RecoveryCode } from '../types/results.js';

@Resolver()
export class RecoveryResolver {
  @Mutation(() => RecoveryCode, { description: 'The code is shown once; a new request replaces the old one' })
  requestRecoveryCode(@Arg('input', () => RecoveryRequestInput) input: RecoveryRequestInput, @Ctx() context: RequestContext) {
    return requestRecoveryCode(context, input.email);
  }

  @Mutation(() => RecoveredAccount, { description: 'No Bearer needed: rotates the API key and the recovery code' })
  recoverAccount(@Arg('input', () => RecoverAccountInput) input: RecoverAccountInput, @Ctx() context: RequestContext) {
    return recoverAccount(context, input.recoveryCode);
  }
}
