import type { RequestContext } from '../../../shared/context.js';
import { requireVerifiedEmail } from '../../../shared/context.js';
import { conflict } from '../../../shared/errors.js';
import { creditFromPromotions, walletCreditOf } from './credits.js';

async function payOnce(context: RequestContext, userId: string, name: 'signup' | 'payment-method', amount: bigint) {
  const paid = await creditFromPromotions(context.em, {
    userId,
    amount,
    kind: 'bonus',
    idempotencyKey: `bonus:${name}:${userId}`,
    reference: `${name}-bonus`,
  });
  if (paid.replayed) throw conflict('bonus_already_claimed', `The ${name} bonus was already claimed`);
  return walletCreditOf(paid);
}

/** Once per account, verified e-mail required (so self-registered agents cannot farm it). */
export function claimSignupBonus(context: RequestContext) {
  const { userId } = requireVerifiedEmail(context);
  return payOnce(context, userId, 'signup', context.services.config.wallet.signupBonus);
}

/** Once per account, only with a stored payment method (the billing domain answers through its port). */
export async function claimPaymentMethodBonus(context: RequestContext) {
  const { userId } = requireVerifiedEmail(context);
  const hasPaymentMethod = context.services.ports.hasPaymentMethod;
  if (!hasPaymentMethod || !(await hasPaymentMethod(context.em, userId))) {
    throw conflict('payment_method_required', 'Add a payment method first to claim this bonus');
  }
  return payOnce(context, userId, 'payment-method', context.services.config.wallet.paymentMethodBonus);
}
