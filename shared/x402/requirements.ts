import type { X402Network } from './networks.js';
import type { X402Reason } from './reasons.js';

/** One entry of `accepts` in the x402 version 1 shape (the shape the `x402` package validates). */
export interface PaymentRequirementsV1 {
  scheme: 'exact';
  network: string;
  maxAmountRequired: string;
  resource: string;
  description: string;
  mimeType: string;
  payTo: string;
  maxTimeoutSeconds: number;
  asset: string;
  extra: { name: string; version: string };
}

export interface PaymentTerms {
  network: X402Network;
  payTo: string;
  /** Atomic units (micro-dollars for USDC). */
  amount: bigint;
  resource: string;
  description: string;
  /** How long a payment's authorization may be valid for (whole seconds); DEFAULT_MAX_TIMEOUT_SECONDS when not given. */
  maxTimeoutSeconds?: number;
  /**
   * How long it must still be valid when it arrives: a call is settled only after its upstream
   * answered, so its authorization must outlive the longest call. A few seconds when not given.
   */
  minValiditySeconds?: number;
}

export const DEFAULT_MAX_TIMEOUT_SECONDS = 300;
export const maxTimeoutSecondsOf = (terms: PaymentTerms) => terms.maxTimeoutSeconds ?? DEFAULT_MAX_TIMEOUT_SECONDS;

export function requirementsV1(terms: PaymentTerms): PaymentRequirementsV1 {
  return {
    scheme: 'exact',
    network: terms.network.name,
    maxAmountRequired: terms.amount.toString(),
    resource: terms.resource,
    description: terms.description,
    mimeType: 'application/json',
    payTo: terms.payTo,
    maxTimeoutSeconds: maxTimeoutSecondsOf(terms),
    asset: terms.network.asset,
    extra: terms.network.eip712,
  };
}

/** The 402 body for version 1 clients. */
export function paymentRequiredBody(terms: PaymentTerms, error: X402Reason) {
  return { x402Version: 1, error, accepts: [requirementsV1(terms)] };
}

/** One entry of `accepts` in the x402 version 2 shape (CAIP-2 network, `amount`). */
export function requirementsV2(terms: PaymentTerms) {
  return {
    scheme: 'exact' as const,
    network: terms.network.caip2,
    amount: terms.amount.toString(),
    asset: terms.network.asset,
    payTo: terms.payTo,
    maxTimeoutSeconds: maxTimeoutSecondsOf(terms),
    extra: terms.network.eip712,
  };
}

/** The requirements in the shape of the payment's own version (what a facilitator checks it against). */
export const requirementsFor = (x402Version: 1 | 2, terms: PaymentTerms) => (x402Version === 2 ? requirementsV2(terms) : requirementsV1(terms));

/** The base64 PAYMENT-REQUIRED header for version 2 clients. */
export function paymentRequiredHeader(terms: PaymentTerms, error: X402Reason): string {
  const body = {
    x402Version: 2,
    error,
    resource: { url: terms.resource, description: terms.description, mimeType: 'application/json' },
    accepts: [requirementsV2(terms)],
  };
  return Buffer.from(JSON.stringify(body)).toString('base64');
}

export const encodeHeaderJson = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
