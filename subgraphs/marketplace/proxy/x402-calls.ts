import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { AppError } from '../../../shared/errors.js';
import { pickSystemAccount, transferAll, type TransferInput } from '../../../shared/ledger/index.js';
import { formatMoney } from '../../../shared/money.js';
import {
  decodePaymentHeader,
  findNetwork,
  markPayment,
  markPaymentUnbooked,
  PaymentRejected,
  PaymentRequired,
  recordPayment,
  settlePayment,
  verifyExactPayment,
  type PaymentTerms,
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
  /** Settled, but its booking for the publisher failed (kept as settled_unbooked). */
  unbooked?: boolean;
}

/**
 * What one call of an x402_per_request publisher costs on-chain: price plus fee, paid to the
 * publisher's wallet on its network, or to the platform's X402_PAY_TO when it has none.
 */
export function callPaymentTerms(context: RequestContext, target: CallTarget, path: string): PaymentTerms & { paidToPlatform: boolean } {
  const { publisher } = target;
  const own = findNetwork(publisher.walletNetworkId);
  const base = {
    amount: target.price.total,
    resource: `${context.services.config.publicUrl}/publishers/${publisher.slug}${path}`,
    description: `One call to ${publisher.name}: ${formatMoney(target.price.total)} USD`,
  };
  if (publisher.walletAddress && own) return { ...base, network: own, payTo: publisher.walletAddress, paidToPlatform: false };
  const { payTo, network } = context.services.config.x402;
  const fallback = findNetwork(network);
  if (!payTo || !fallback) throw new AppError(503, 'onchain_payments_unavailable', 'On-chain payments are not configured');
  return { ...base, network: fallback, payTo, paidToPlatform: true };
}

/** Verifies the signed authorization for this call and records its nonce once (before any settlement). */
export async function acceptCallPayment(context: RequestContext, target: CallTarget, path: string, header: string): Promise<OnChainPayment> {
  const { paidToPlatform, ...terms } = callPaymentTerms(context, target, path);
  try {
    const payment = verifyExactPayment(decodePaymentHeader(header), terms);
    if (!(await recordPayment(context.em, terms.network, payment, { payTo: terms.payTo, resource: terms.resource }))) {
      throw new PaymentRejected('duplicate_settlement');
    }
    return { terms, payment, paidToPlatform };
  } catch (error) {
    if (error instanceof PaymentRejected) throw new PaymentRequired(terms, error.reason);
    throw error;
  }
}

/**
 * After the upstream succeeded: settle through the facilitator (or verify-only). When the platform
 * was paid, the publisher's payable earns the price and the platform's revenue the fee.
 */
export async function settleCallPayment(context: RequestContext, target: CallTarget, paid: OnChainPayment): Promise<Settlement> {
  const { terms, payment } = paid;
  let settlement: Settlement;
  try {
    const { settlement: mode, facilitatorUrl } = context.services.config.x402;
    settlement = await settlePayment(payment, terms, { mode, facilitatorUrl, timeoutMs: context.services.config.proxy.timeoutMs });
  } catch (error) {
    await markPayment(context.em as EntityManager, terms.network, payment, 'failed', null);
    if (error instanceof PaymentRejected) throw new PaymentRequired(terms, error.reason);
    throw error;
  }
  paid.settled = true;
  await bookSettledPayment(context, target, paid, settlement);
  return settlement;
}

/** Waits before booking again: a database blip of about a second is ridden out while the caller waits. */
const BOOKING_RETRY_DELAYS_MS = [200, 800];

/**
 * The payer's money has moved on-chain, so the caller gets its answer whatever happens here.
 * Booking is idempotent (its transfers' keys), so a failure is tried again. One that still fails
 * leaves the payment `settled_unbooked` with the transfers it needs, keys included, to be booked
 * exactly once later, and an error in the log.
 */
async function bookSettledPayment(context: RequestContext, target: CallTarget, paid: OnChainPayment, settlement: Settlement): Promise<void> {
  const { terms, payment } = paid;
  const em = context.em as EntityManager;
  const key = `x402-call:${terms.network.caip2}:${payment.payer.toLowerCase()}:${payment.nonce}`;
  const reference = settlement.transaction || payment.nonce;
  const transaction = settlement.transaction || null;
  for (let attempt = 0; ; attempt++) {
    try {
      await em.transactional(async (tx) => {
        const db = tx as EntityManager;
        // First in the transaction: transferAll takes its account locks in the ledger's order.
        if (paid.paidToPlatform) await transferAll(db, await platformBookings(db, target, paid, key, reference));
        await markPayment(db, terms.network, payment, 'settled', transaction);
      });
      return;
    } catch (error) {
      const delay = BOOKING_RETRY_DELAYS_MS[attempt];
      if (delay !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        continue;
      }
      const where = { network: terms.network.caip2, payer: payment.payer, nonce: payment.nonce, transaction };
      if (!paid.paidToPlatform) {
        // Paid to the publisher's own wallet: nothing to book, only the status could not be written.
        return context.log.error({ err: error, ...where }, 'x402 call payment settled on-chain but could not be marked settled');
      }
      paid.unbooked = true;
      const unbooked = unbookedTransfers(target, paid, key, reference);
      context.log.error({ err: error, ...where, unbooked }, 'x402 call payment settled on-chain but not booked; kept as settled_unbooked');
      await markPaymentUnbooked(em, terms.network, payment, transaction, unbooked).catch((markError) =>
        context.log.error({ err: markError, ...where }, 'x402 call payment could not be marked settled_unbooked either'),
      );
      return;
    }
  }
}

/** What booking a payment to the platform takes, written down for whoever books it later. */
function unbookedTransfers(target: CallTarget, paid: OnChainPayment, key: string, reference: string) {
  const fee = target.price.fee;
  return {
    publisher_id: target.publisher.id,
    reference,
    price: { idempotency_key: `${key}:price`, amount: (paid.terms.amount - fee).toString(), from: 'onchain_clearing', to: 'publisher_payable' },
    fee: fee === 0n ? null : { idempotency_key: `${key}:fee`, amount: fee.toString(), from: 'onchain_clearing', to: 'platform_revenue' },
  };
}

/** The price for the publisher's payable and the fee for the platform, out of on-chain clearing. */
async function platformBookings(em: EntityManager, target: CallTarget, paid: OnChainPayment, key: string, reference: string): Promise<TransferInput[]> {
  const clearing = await pickSystemAccount(em, 'onchain_clearing', { shardKey: key });
  const fee = target.price.fee;
  const metadata = { method: 'x402', publisher_slug: target.publisher.slug, payer: paid.payment.payer };
  const price: TransferInput = {
    idempotencyKey: `${key}:price`,
    debit: clearing,
    credit: await pickSystemAccount(em, 'publisher_payable', { publisherId: target.publisher.id, shardKey: key }),
    amount: paid.terms.amount - fee,
    kind: 'charge',
    reference,
    metadata,
  };
  if (fee === 0n) return [price];
  const revenue = await pickSystemAccount(em, 'platform_revenue', { shardKey: key });
  return [price, { idempotencyKey: `${key}:fee`, debit: clearing, credit: revenue, amount: fee, kind: 'gateway_fee', reference, metadata }];
}

/** The upstream failed: the authorization is never executed. */
export async function dropCallPayment(context: RequestContext, paid: OnChainPayment): Promise<void> {
  if (paid.settled) return;
  await markPayment(context.em as EntityManager, paid.terms.network, paid.payment, 'failed', null);
}
