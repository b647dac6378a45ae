import type { IncomingHttpHeaders } from 'node:http';
import type { RequestContext } from '../../../shared/context.js';
import { AppError, unauthorized } from '../../../shared/errors.js';
import { paymentHeaderOf, paymentReceiptHeaders, PaymentRequired } from '../../../shared/x402/index.js';
import type { CallTarget } from './call-target.js';
import { holdCallCharge, releaseCallCharge, type Hold } from './charging.js';
import { acceptCallPayment, callPaymentTerms, dropCallPayment, settleCallPayment, type OnChainPayment } from './x402-calls.js';
import type { UsageCounters } from './usage-counters.js';

export interface CallPayment {
  /** Held from the caller's wallet (prepaid credits first). */
  hold: Hold | null;
  /** Paid per request on-chain (x402) instead of from the wallet. */
  onChain: OnChainPayment | null;
}

export interface PayableCall {
  callId: string;
  /** The path the payment terms name (a tool call: `/{tool}`). */
  path: string;
  headers: IncomingHttpHeaders;
  /** Recorded with the hold (publisher, endpoint). */
  metadata: Record<string, unknown>;
}

/**
 * How a call is paid before anything goes out: on-chain with the caller's X-PAYMENT or
 * PAYMENT-SIGNATURE where the publisher bills x402_per_request, else held from the wallet. Nothing
 * is held for a call that costs nothing.
 */
export async function payForCall(context: RequestContext, target: CallTarget, call: PayableCall): Promise<CallPayment> {
  const paymentHeader = target.payableOnChain ? paymentHeaderOf(call.headers) : null;
  if (paymentHeader) return { hold: null, onChain: await acceptCallPayment(context, target, call.path, paymentHeader) };
  if (target.reserve === 0n) return { hold: null, onChain: null };
  return { hold: await holdFromWallet(context, target, call), onChain: null };
}

/**
 * The wallet pays (prepaid credits first). For an x402_per_request publisher, a caller without an
 * account or without enough balance is answered with the call's on-chain payment instructions.
 */
async function holdFromWallet(context: RequestContext, target: CallTarget, call: PayableCall): Promise<Hold> {
  const onChainTerms = () => callPaymentTerms(context, target, call.path);
  if (!context.identity) {
    if (target.payableOnChain) throw new PaymentRequired(onChainTerms(), 'invalid_payment');
    // A public endpoint never asks for a credential; one priced without on-chain payment (refused
    // at create and update since) cannot be paid by an anonymous caller.
    if (target.anonymousAllowed) throw new AppError(402, 'payment_required', 'This public endpoint is priced and its publisher takes no on-chain payment');
    throw unauthorized('This endpoint is priced: call it with an API key or access token');
  }
  try {
    const { userId } = context.identity;
    return await context.services.metrics.timeLedgerStep('hold', () =>
      holdCallCharge(context.em, { callId: call.callId, userId, publisherId: target.publisher.id, amount: target.reserve, metadata: call.metadata }),
    );
  } catch (error) {
    if (target.payableOnChain && error instanceof AppError && error.code === 'insufficient_balance') {
      throw new PaymentRequired(onChainTerms(), 'insufficient_funds');
    }
    throw error;
  }
}

/**
 * After the work was done: settles the call's on-chain payment and counts it. The receipt headers
 * (X-PAYMENT-RESPONSE), none when the facilitator left the settlement unknown.
 */
export async function settleOnChain(context: RequestContext, target: CallTarget, onChain: OnChainPayment, counters: UsageCounters): Promise<Record<string, string>> {
  const settlement = await settleCallPayment(context, target, onChain);
  counters.record(target.publisher.id, context.identity?.userId ?? null, onChain.unbooked ? 0n : target.price.total - target.price.fee);
  context.services.metrics.countPaidCall(onChain.unbooked ? 'onchain_unbooked' : 'onchain_settled');
  return settlement ? paymentReceiptHeaders(settlement) : {};
}

/** The work failed, or was never done: the hold goes back, the on-chain payment is never settled. */
export async function abandonPayment(context: RequestContext, payment: CallPayment, reason: string): Promise<void> {
  if (payment.hold) await releaseCallCharge(context.em, payment.hold, reason);
  if (payment.onChain) {
    await dropCallPayment(context, payment.onChain);
    context.services.metrics.countPaidCall('onchain_dropped');
  } else {
    context.services.metrics.countUncharged(payment.hold !== null);
  }
}
