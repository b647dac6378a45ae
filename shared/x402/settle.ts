import { knownReason } from './reasons.js';
import { requirementsV1, type PaymentTerms } from './requirements.js';
import { AppError } from '../errors.js';
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

/**
 * Settles a verified payment through the facilitator (`/verify` then `/settle`), or accepts the
 * verified signature alone with X402_SETTLEMENT=verify-only (testnets, development).
 */
export async function settlePayment(payment: VerifiedPayment, terms: PaymentTerms, options: SettlementOptions): Promise<Settlement> {
  if (options.mode === 'verify-only') {
    const network = payment.x402Version === 2 ? terms.network.caip2 : terms.network.name;
    return { success: true, transaction: '', network, payer: payment.payer };
  }
  if (!options.facilitatorUrl) throw new PaymentRejected('unexpected_settle_error');
  const body = { x402Version: payment.x402Version, paymentPayload: payment.paymentPayload, paymentRequirements: requirementsV1(terms) };
  const timeoutMs = options.timeoutMs ?? 30_000;
  const verified = await callFacilitator(options.facilitatorUrl, '/verify', body, timeoutMs);
  if (verified.isValid !== true) throw new PaymentRejected(knownReason(verified.invalidReason, 'invalid_payment'));
  const settled = await callFacilitator(options.facilitatorUrl, '/settle', body, timeoutMs);
  // Only an explicit refusal is one: any other answer leaves the transfer possibly on-chain.
  if (settled.success === false) throw new PaymentRejected(knownReason(settled.errorReason, 'unexpected_settle_error'));
  if (settled.success !== true) throw new SettlementUnknown();
  return { success: true, transaction: String(settled.transaction ?? ''), network: String(settled.network ?? terms.network.name), payer: payment.payer };
}
