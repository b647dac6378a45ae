import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { addPaymentMethod, deletePaymentMethod, listPaymentMethods } from '../services/payment-methods.js';
import { AddPaymentMethodInput } from '../types/inputs.js';
import { PaymentMethodView } from '../types/results.js';

@Resolver()
export class PaymentMethodResolver {
  @Query(() => [PaymentMethodView], { description: 'The acting organization’s stored payment methods, newest first' })
  paymentMethods(@Ctx() context: RequestContext) {
    return listPaymentMethods(context);
  }

  @Mutation(() => PaymentMethodView, { description: 'Attaches a Stripe payment method to the organization’s customer' })
  addPaymentMethod(@Arg('input', () => AddPaymentMethodInput) input: AddPaymentMethodInput, @Ctx() context: RequestContext) {
    return addPaymentMethod(context, input);
  }

  @Mutation(() => Boolean, { description: 'Detaches and forgets it; deleting the default promotes the most recent other one' })
  deletePaymentMethod(@Arg('id', () => ID) id: string, @Ctx() context: RequestContext) {
    return deletePaymentMethod(context, id);
  }
}
