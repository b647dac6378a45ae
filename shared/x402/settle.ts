import { knownReason } from './reasons.js';
import { requirementsFor, type PaymentTerms } from './requirements.js';
import { AppError } from '../errors.js';
import { sameAddress } from './networks.js';
import { PaymentRejected, type VerifiedPayment } from './verify.js';

/**
 * The facilitator gave no clear answer to /settle (no connection, a timeout, an answer that is not
 * JSON): the transfer may have gone on-chain. Never treat it as failed, and never ask for a new payment.
 */
export class SettlementUnknown extends AppError {
  constructor() {
    super(502, 'settlement_unknown', 'The payment may have gone through: it is recorded for checking. Do not pay again for this request');
  }
}

export interface Settlement {
  success: true;
  /** On-chain transaction hash; empty in verify-only mode. */
  transaction: string;
  network: string;
  payer: string;
}

export interface SettlementOptions {
  mode: 'facilitator' | 'verify-only';
  facilitatorUrl?: string;
  timeoutMs?: number;
  /** The facilitator already said the payment is good (checkPayment, before a call went out): /settle alone. */
  checked?: boolean;
}

/** No clear answer: harmless before settling (nothing moved yet), unknown when settling. */
const unclear = (path: '/verify' | '/settle') => (path === '/verify' ? new PaymentRejected('unexpected_verify_error') : new SettlementUnknown());

async function callFacilitator(url: string, path: '/verify' | '/settle', body: unknown, timeoutMs: number): Promise<Record<string, any>> {
  let response: Response;
  try {
    response = await fetch(`${url.replace(/\/$/, '')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    throw unclear(path);
  }
  // A gateway in front of the facilitator that timed out or failed says nothing about the chain.
  if (response.status >= 500 || response.status === 408 || response.status === 429) throw unclear(path);
  const answer = (await response.json().catch(() => null)) as Record<string, any> | null;
  if (!answer) throw unclear(path);
  return answer;
}

const onNetwork = (terms: PaymentTerms, network: unknown) =>
  network === undefined || network === null || network === terms.network.caip2 || network === terms.network.name;

const facilitatorBody = (payment: VerifiedPayment, terms: PaymentTerms) => ({
  x402Version: payment.x402Version,
  paymentPayload: payment.paymentPayload,
  paymentRequirements: requirementsFor(payment.x402Version, terms),
});

/** Verify-only accepts a signature alone, and only for test money: a payment on a real network must be settled. */
function assertVerifyOnlyAllowed(terms: PaymentTerms): void {
  if (!terms.network.testnet) throw new PaymentRejected('invalid_network');
}

/**
 * Asks the facilitator whether the payment can be settled (funds, nonce unused, signature), before
 * a call's upstream does any work for it: a signature alone can come from an empty wallet. With
 * X402_SETTLEMENT=verify-only, the signature alone does, on a testnet only.
 */
export async function checkPayment(payment: VerifiedPayment, terms: PaymentTerms, options: SettlementOptions): Promise<void> {
  if (options.mode === 'verify-only') return assertVerifyOnlyAllowed(terms);
  if (!options.facilitatorUrl) throw new PaymentRejected('unexpected_verify_error');
  const verified = await callFacilitator(options.facilitatorUrl, '/verify', facilitatorBody(payment, terms), options.timeoutMs ?? 30_000);
  if (verified.isValid !== true) throw new PaymentRejected(knownReason(verified.invalidReason, 'invalid_payment'));
}

/**
 * Settles a verified payment through the facilitator (`/verify`, unless already checked, then
 * `/settle`), or accepts the verified signature alone with X402_SETTLEMENT=verify-only (testnets).
 */
export async function settlePayment(payment: VerifiedPayment, terms: PaymentTerms, options: SettlementOptions): Promise<Settlement> {
  if (options.mode === 'verify-only') {
    assertVerifyOnlyAllowed(terms);
    const network = payment.x402Version === 2 ? terms.network.caip2 : terms.network.name;
    return { success: true, transaction: '', network, payer: payment.payer };
  }
  if (!options.facilitatorUrl) throw new PaymentRejected('unexpected_settle_error');
  const body = facilitatorBody(payment, terms);
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!options.checked) await checkPayment(payment, terms, options);
  const settled = await callFacilitator(options.facilitatorUrl, '/settle', body, timeoutMs);
  // Only an explicit refusal is one: any other answer leaves the transfer possibly on-chain.
  if (settled.success === false) throw new PaymentRejected(knownReason(settled.errorReason, 'unexpected_settle_error'));
  if (settled.success !== true) throw new SettlementUnknown();
  // A success for another payer or network is not this payment's: left for the chain check, not booked.
  const payer = settled.payer ?? payment.payer;
  if (typeof payer !== 'string' || !sameAddress(payment.payer, payer) || !onNetwork(terms, settled.network)) throw new SettlementUnknown();
  return { success: true, transaction: String(settled.transaction ?? ''), network: String(settled.network ?? terms.network.name), payer: payment.payer };
}
