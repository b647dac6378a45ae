import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { createCardDeposit } from '../services/card-deposits.js';
import { CardDepositInput } from '../types/inputs.js';
import { CardCheckout } from '../types/results.js';

@Resolver()
export class DepositResolver {
  @Mutation(() => CardCheckout, { description: 'Card deposit of 1 to 100 USD through Stripe Checkout; verified e-mail required' })
  createCardDeposit(@Arg('input', () => CardDepositInput) input: CardDepositInput, @Ctx() context: RequestContext) {
    return createCardDeposit(context, input.amountCents);
  }
}
