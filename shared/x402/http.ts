import type { Response } from 'express';
import { AppError } from '../errors.js';
import type { X402Reason } from './reasons.js';
import { encodeHeaderJson, paymentRequiredBody, paymentRequiredHeader, type PaymentTerms } from './requirements.js';
import type { Settlement } from './settle.js';

/** A 402 that carries x402 payment instructions (rendered by `sendPaymentRequired` on HTTP routes). */
export class PaymentRequired extends AppError {
  constructor(
    readonly terms: PaymentTerms,
    readonly reason: X402Reason,
  ) {
    super(402, 'payment_required', `Payment required: ${terms.description}`);
  }
}

/** The x402 answer: version 1 body, version 2 in the PAYMENT-REQUIRED header. */
export function sendPaymentRequired(res: Response, terms: PaymentTerms, reason: X402Reason): void {
  res.setHeader('PAYMENT-REQUIRED', paymentRequiredHeader(terms, reason));
  res.status(402).json(paymentRequiredBody(terms, reason));
}

/** The settlement receipt for both protocol versions. */
export function paymentReceiptHeaders(settlement: Settlement): Record<string, string> {
  const receipt = encodeHeaderJson(settlement);
  return { 'x-payment-response': receipt, 'payment-response': receipt };
}

/** X-PAYMENT (version 1) or PAYMENT-SIGNATURE (version 2). */
export function paymentHeaderOf(headers: Record<string, string | string[] | undefined>): string | null {
  const value = headers['x-payment'] ?? headers['payment-signature'];
  return typeof value === 'string' && value.length > 0 ? value : null;
}
