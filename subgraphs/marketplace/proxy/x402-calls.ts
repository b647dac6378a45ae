import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { formatMoney } from '../../../shared/money.js';
import {
  checkPayment,
  decodePaymentHeader,
  DEFAULT_MAX_TIMEOUT_SECONDS,
  markPayment,
  payeeOf,
  paymentKey,
  paymentKeyStem,
  storedPlan,
  PaymentRejected,
  PaymentRequired,
  recordPayment,
  settleAndBook,
  SettlementUnknown,
  verifyExactPayment,
  type PaymentTerms,
  type PlannedAccount,
  type PlannedTransfer,
  type Settlement,
  type VerifiedPayment,
} from '../../../shared/x402/index.js';
import type { CallTarget } from './call-target.js';

export interface OnChainPayment {
  terms: PaymentTerms;
  payment: VerifiedPayment;
  /** Paid to the platform's own address (the publisher has none): the ledger books it for payout. */
  paidToPlatform: boolean;
  /** Settled on-chain: from then on the payment is never marked failed. */
  settled?: boolean;
  /** Settled or maybe settled, but not booked (kept as settled_unbooked or settle_unknown). */
  unbooked?: boolean;
}

/**
 * What one call of an x402_per_request publisher costs on-chain: price plus fee, paid to the
 * publisher's wallet on its network, or to the platform's X402_PAY_TO when it has none. The
 * authorization must stay valid from its verification to its settlement, after the upstream
 * answered: it may last the longest a call can take with a minute's margin (never less than
 * 300 s), and must still last that long, and 10 s to settle, when it arrives.
 */
export function callPaymentTerms(context: RequestContext, target: CallTarget, path: string): PaymentTerms & { paidToPlatform: boolean } {
  const { publisher } = target;
  const { config } = context.services;
  return {
    ...payeeOf(config.x402, publisher),
    amount: target.price.total,
    resource: `${config.publicUrl}/publishers/${publisher.slug}${path}`,
    description: `One call to ${publisher.name}: ${formatMoney(target.price.total)} USD`,
    maxTimeoutSeconds: Math.max(DEFAULT_MAX_TIMEOUT_SECONDS, config.proxy.longestCallSeconds + 60),
    minValiditySeconds: config.proxy.longestCallSeconds + SETTLING_SECONDS,
  };
}

const SETTLING_SECONDS = 10;

/** How calls reach the facilitator: within the proxy's own timeout. */
function settlementOptions(context: RequestContext) {
  const { settlement: mode, facilitatorUrl } = context.services.config.x402;
  return { mode, facilitatorUrl, timeoutMs: context.services.config.proxy.timeoutMs };
}

/**
 * Verifies the signed authorization for this call, has the facilitator confirm it can be settled
 * (a signature can come from an empty wallet: the upstream must not work for it), and records its
 * nonce once; all before anything is forwarded.
 */
export async function acceptCallPayment(context: RequestContext, target: CallTarget, path: string, header: string): Promise<OnChainPayment> {
  const { paidToPlatform, ...terms } = callPaymentTerms(context, target, path);
  try {
    const payment = verifyExactPayment(decodePaymentHeader(header), terms);
    await checkPayment(payment, terms, settlementOptions(context));
    const paid: OnChainPayment = { terms, payment, paidToPlatform };
    const details = {
      payTo: terms.payTo,
      resource: terms.resource,
      publisherShare: { publisherId: target.publisher.id, amount: target.price.total - target.price.fee },
      plan: storedPlan(bookingPlan(target, paid, payment.nonce)),
    };
    if (!(await recordPayment(context.em, terms.network, payment, details))) throw new PaymentRejected('duplicate_settlement');
    return paid;
  } catch (error) {
    if (error instanceof PaymentRejected) throw new PaymentRequired(terms, error.reason);
    throw error;
  }
}

/**
 * After the upstream succeeded: settle through the facilitator (or verify-only) and book it. When
 * the platform was paid, the publisher's payable earns the price and the platform's revenue the
 * fee. Null when the facilitator gave no clear answer: the payment may have gone on-chain, so the
 * caller still gets the answer it may have paid for, and the payment is kept as `settle_unknown`.
 * A booking that keeps failing leaves it `settled_unbooked` for the sweep, and the caller its answer.
 */
export async function settleCallPayment(context: RequestContext, target: CallTarget, paid: OnChainPayment): Promise<Settlement | null> {
  const { terms, payment } = paid;
  const options = { ...settlementOptions(context), checked: true };
  const plan = (reference: string) => bookingPlan(target, paid, reference);
  try {
    const { settlement, booked } = await settleAndBook(context.em as EntityManager, paymentKey(terms.network, payment), payment, terms, options, plan, context.log);
    paid.settled = true;
    paid.unbooked = booked === null;
    return settlement;
  } catch (error) {
    if (error instanceof SettlementUnknown) {
      paid.settled = true;
      paid.unbooked = true;
      return null;
    }
    if (error instanceof PaymentRejected) throw new PaymentRequired(terms, error.reason);
    throw error;
  }
}

/**
 * What a call paid for on-chain books. Paid to the platform: the price for the publisher's payable
 * and the fee for the platform, out of on-chain clearing. Paid to the publisher's own wallet, the
 * publisher holds the price and the fee: it owes the fee, taken from its payable for the platform.
 * A zero part is left out.
 */
function bookingPlan(target: CallTarget, paid: OnChainPayment, reference: string): PlannedTransfer[] {
  const key = `x402-call:${paymentKeyStem(paymentKey(paid.terms.network, paid.payment))}`;
  const fee = target.price.fee;
  const payable: PlannedAccount = { kind: 'publisher_payable', publisherId: target.publisher.id, shardKey: key };
  const common = { reference, metadata: { method: 'x402', publisher_slug: target.publisher.slug, payer: paid.payment.payer } };
  const feeTransfer: PlannedTransfer = {
    ...common,
    idempotencyKey: `${key}:fee`,
    debit: paid.paidToPlatform ? { kind: 'onchain_clearing', shardKey: key } : payable,
    credit: { kind: 'platform_revenue', shardKey: key },
    amount: fee,
    kind: 'gateway_fee',
  };
  const price: PlannedTransfer = {
    ...common,
    idempotencyKey: `${key}:price`,
    debit: { kind: 'onchain_clearing', shardKey: key },
    credit: payable,
    amount: paid.terms.amount - fee,
    kind: 'charge',
  };
  return (paid.paidToPlatform ? [price, feeTransfer] : [feeTransfer]).filter((planned) => planned.amount > 0n);
}

/** The upstream failed: the authorization is never executed. */
export async function dropCallPayment(context: RequestContext, paid: OnChainPayment): Promise<void> {
  if (paid.settled) return;
  await markPayment(context.em as EntityManager, paymentKey(paid.terms.network, paid.payment), 'failed');
}
