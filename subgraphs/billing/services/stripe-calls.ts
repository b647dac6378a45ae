import Stripe from 'stripe';
import type { RequestContext } from '../../../shared/context.js';
import { AppError, badRequest } from '../../../shared/errors.js';
import { stripeClient } from '../../../shared/stripe-client.js';

export function requireStripe(context: RequestContext): Stripe {
  const stripe = stripeClient(context.services.config);
  if (!stripe) throw new AppError(503, 'card_payments_unavailable', 'Card payments are not configured');
  return stripe;
}

/**
 * Runs a Stripe call: a request Stripe refuses (a card declined, an unknown payment method) is the
 * caller's 400 with Stripe's reason; Stripe unreachable or failing is 502, and nothing was changed here.
 */
export async function callStripe<T>(context: RequestContext, refusedCode: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    const status = error.statusCode ?? 0;
    if (status >= 400 && status < 500 && status !== 401 && status !== 429) throw badRequest(refusedCode, error.message || 'Stripe refused the request');
    context.log.warn({ stripeError: error.type, stripeCode: error.code, status }, 'Stripe call failed');
    throw new AppError(502, 'card_payments_unavailable', 'The card payment provider could not be reached; nothing was changed, try again shortly');
  }
}
