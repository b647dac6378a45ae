import type { EntityManager } from '@mikro-orm/postgresql';
import Stripe from 'stripe';
import type { RequestContext } from '../../../shared/context.js';
import { requireVerifiedEmail } from '../../../shared/context.js';
import { AppError, badRequest } from '../../../shared/errors.js';
import { ensureWalletAccount, pickSystemAccount, transfer, type LedgerTransfer } from '../../../shared/ledger/index.js';
import { isUuid } from '../../../shared/ids.js';
import { centsToMicros } from '../../../shared/money.js';
import { stripeClient } from '../../../shared/stripe-client.js';

export const MIN_DEPOSIT_CENTS = 100;
export const MAX_DEPOSIT_CENTS = 10_000;
const PURPOSE = 'wallet_deposit';

const cardPaymentsUnavailable = () => new AppError(503, 'card_payments_unavailable', 'Card payments are not configured');

/** Starts a Stripe Checkout Session; the wallet is credited only when Stripe's signed webhook says it was paid. */
export async function createCardDeposit(context: RequestContext, amountCents: number) {
  const identity = requireVerifiedEmail(context);
  if (!Number.isInteger(amountCents) || amountCents < MIN_DEPOSIT_CENTS || amountCents > MAX_DEPOSIT_CENTS) {
    throw badRequest('invalid_amount', `amount_cents must be a whole number from ${MIN_DEPOSIT_CENTS} to ${MAX_DEPOSIT_CENTS}`);
  }
  const stripe = stripeClient(context.services.config);
  if (!stripe) throw cardPaymentsUnavailable();
  const base = context.services.config.publicUrl;
  const session = await startCheckout(context, stripe, {
    mode: 'payment',
    line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: amountCents, product_data: { name: 'Wallet deposit' } } }],
    client_reference_id: identity.userId,
    customer_email: identity.email ?? undefined,
    metadata: { purpose: PURPOSE, user_id: identity.userId, amount_cents: String(amountCents) },
    success_url: `${base}/wallet?deposit=success&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${base}/wallet?deposit=cancelled`,
  });
  if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
  return { id: session.id, url: session.url, amountCents };
}

/** Stripe unreachable, or refusing the request, is not the caller's doing: 502, and nothing was charged. */
async function startCheckout(context: RequestContext, stripe: Stripe, params: Stripe.Checkout.SessionCreateParams): Promise<Stripe.Checkout.Session> {
  try {
    return await stripe.checkout.sessions.create(params);
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    context.log.warn({ stripeError: error.type, stripeCode: error.code, status: error.statusCode }, 'Stripe did not start a checkout session');
    throw new AppError(502, 'card_payments_unavailable', 'The card payment provider could not start a checkout; nothing was charged, try again shortly');
  }
}

const PAID_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/**
 * What a paid session credits: the deposit asked for, in US dollars, or less when less was paid (a
 * discount). Never more: tax or fees Stripe added on top are not wallet money. Null for a session
 * that is not one of ours or not in dollars.
 */
function creditedCents(session: Stripe.Checkout.Session): number | null {
  const asked = Number(session.metadata?.amount_cents);
  const paid = session.amount_total;
  if (session.currency !== 'usd' || !Number.isInteger(asked) || asked <= 0 || !Number.isInteger(paid) || paid! <= 0) return null;
  return Math.min(asked, paid!);
}

/**
 * Credits a paid wallet deposit exactly once per checkout session: the idempotency key is the
 * session id, so a second delivery, or `completed` and `async_payment_succeeded` in any order, pay once.
 */
export async function creditCheckoutSession(em: EntityManager, event: Stripe.Event): Promise<LedgerTransfer | null> {
  if (!PAID_EVENTS.has(event.type)) return null;
  const session = event.data.object as Stripe.Checkout.Session;
  if (session.metadata?.purpose !== PURPOSE || session.payment_status !== 'paid') return null;
  const userId = session.metadata.user_id;
  const cents = creditedCents(session);
  if (!userId || !isUuid(userId) || cents === null) return null;
  const idempotencyKey = `stripe-checkout:${session.id}`;
  return transfer(em, {
    idempotencyKey,
    debit: await pickSystemAccount(em, 'card_clearing', { shardKey: idempotencyKey }),
    credit: await ensureWalletAccount(em, userId),
    amount: centsToMicros(cents),
    kind: 'deposit',
    reference: session.id,
    metadata: { method: 'card', checkout_session_id: session.id, stripe_event_id: event.id },
  });
}
