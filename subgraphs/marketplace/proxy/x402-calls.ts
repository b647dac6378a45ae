import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { AppError } from '../../../shared/errors.js';
import { pickSystemAccount, transferAll, type TransferInput } from '../../../shared/ledger/index.js';
import { formatMoney } from '../../../shared/money.js';
import {
  decodePaymentHeader,
  findNetwork,
  markPayment,
  PaymentRejected,
  PaymentRequired,
  recordPayment,
  settlePayment,
  SettlementUnknown,
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
  /** Settled or maybe settled, but not booked (kept as settled_unbooked or settle_unknown). */
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
 * was paid, the publisher's payable earns the price and the platform's revenue the fee. Null when
 * the facilitator gave no clear answer: the payment may have gone on-chain, so the caller still
 * gets the answer it may have paid for, and the payment is kept as `settle_unknown` for checking.
 */
export async function settleCallPayment(context: RequestContext, target: CallTarget, paid: OnChainPayment): Promise<Settlement | null> {
  const { terms, payment } = paid;
  let settlement: Settlement;
  try {
    const { settlement: mode, facilitatorUrl } = context.services.config.x402;
    settlement = await settlePayment(payment, terms, { mode, facilitatorUrl, timeoutMs: context.services.config.proxy.timeoutMs });
  } catch (error) {
    if (error instanceof SettlementUnknown) {
      await keepUnbooked(context, target, paid, 'settle_unknown', null, error);
      return null;
    }
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
 * leaves the payment `settled_unbooked` with the transfers it needs, to be booked exactly once
 * later, and an error in the log.
 */
async function bookSettledPayment(context: RequestContext, target: CallTarget, paid: OnChainPayment, settlement: Settlement): Promise<void> {
  const { terms, payment } = paid;
  const transaction = settlement.transaction || null;
  const plan = paid.paidToPlatform ? bookingPlan(target, paid, settlement.transaction || payment.nonce) : [];
  for (let attempt = 0; ; attempt++) {
    try {
      await (context.em as EntityManager).transactional(async (tx) => {
        const db = tx as EntityManager;
        // First in the transaction: transferAll takes its account locks in the ledger's order.
        if (plan.length > 0) await transferAll(db, await Promise.all(plan.map((planned) => transferOf(db, planned))));
        await markPayment(db, terms.network, payment, 'settled', transaction);
      });
      return;
    } catch (error) {
      const delay = BOOKING_RETRY_DELAYS_MS[attempt];
      if (delay === undefined) return keepUnbooked(context, target, paid, 'settled_unbooked', transaction, error);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** Written down with the payment, for whoever books it once it is known to be settled. */
async function keepUnbooked(
  context: RequestContext,
  target: CallTarget,
  paid: OnChainPayment,
  status: 'settled_unbooked' | 'settle_unknown',
  transaction: string | null,
  error: unknown,
): Promise<void> {
  const { terms, payment } = paid;
  const where = { network: terms.network.caip2, payer: payment.payer, nonce: payment.nonce, transaction };
  // From here on the payment is never marked failed, and its revenue is not counted.
  paid.settled = true;
  paid.unbooked = true;
  const unbooked = paid.paidToPlatform ? bookingPlan(target, paid, transaction || payment.nonce).map(plannedJson) : null;
  context.log.error({ err: error, ...where, status, unbooked }, `x402 call payment kept as ${status}: it needs checking and, if paid to the platform, booking`);
  await markPayment(context.em as EntityManager, terms.network, payment, status, transaction, unbooked).catch((markError) =>
    context.log.error({ err: markError, ...where }, `x402 call payment could not be marked ${status} either`),
  );
}

interface PlannedAccount {
  kind: 'onchain_clearing' | 'publisher_payable' | 'platform_revenue';
  publisherId?: string;
  shardKey: string;
}

interface PlannedTransfer {
  idempotencyKey: string;
  debit: PlannedAccount;
  credit: PlannedAccount;
  amount: bigint;
  kind: 'charge' | 'gateway_fee';
  reference: string;
  metadata: Record<string, unknown>;
}

/**
 * What a payment to the platform books: the price for the publisher's payable and the fee for the
 * platform, out of on-chain clearing (a zero part is left out). The same plan books it now or later.
 */
function bookingPlan(target: CallTarget, paid: OnChainPayment, reference: string): PlannedTransfer[] {
  const key = `x402-call:${paid.terms.network.caip2}:${paid.payment.payer.toLowerCase()}:${paid.payment.nonce}`;
  const fee = target.price.fee;
  const clearing: PlannedAccount = { kind: 'onchain_clearing', shardKey: key };
  const metadata = { method: 'x402', publisher_slug: target.publisher.slug, payer: paid.payment.payer };
  const price: PlannedTransfer = {
    idempotencyKey: `${key}:price`,
    debit: clearing,
    credit: { kind: 'publisher_payable', publisherId: target.publisher.id, shardKey: key },
    amount: paid.terms.amount - fee,
    kind: 'charge',
    reference,
    metadata,
  };
  const feeTransfer: PlannedTransfer = { ...price, idempotencyKey: `${key}:fee`, credit: { kind: 'platform_revenue', shardKey: key }, amount: fee, kind: 'gateway_fee' };
  return [price, feeTransfer].filter((planned) => planned.amount > 0n);
}

async function transferOf(em: EntityManager, planned: PlannedTransfer): Promise<TransferInput> {
  const accountOf = ({ kind, publisherId, shardKey }: PlannedAccount) => pickSystemAccount(em, kind, { shardKey, ...(publisherId ? { publisherId } : {}) });
  return { ...planned, debit: await accountOf(planned.debit), credit: await accountOf(planned.credit) };
}

const plannedJson = (planned: PlannedTransfer) => ({ ...planned, amount: planned.amount.toString() });

/** The upstream failed: the authorization is never executed. */
export async function dropCallPayment(context: RequestContext, paid: OnChainPayment): Promise<void> {
  if (paid.settled) return;
  await markPayment(context.em as EntityManager, paid.terms.network, paid.payment, 'failed', null);
}
