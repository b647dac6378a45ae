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

/** The base64 PAYMENT-REQUIRED header for version 2 clients (CAIP-2 network, `amount`). */
export function paymentRequiredHeader(terms: PaymentTerms, error: X402Reason): string {
  const v1 = requirementsV1(terms);
  const body = {
    x402Version: 2,
    error,
    resource: { url: terms.resource, description: terms.description, mimeType: v1.mimeType },
    accepts: [
      {
        scheme: 'exact',
        network: terms.network.caip2,
        amount: v1.maxAmountRequired,
        asset: v1.asset,
        payTo: v1.payTo,
        maxTimeoutSeconds: v1.maxTimeoutSeconds,
        extra: v1.extra,
      },
    ],
  };
  return Buffer.from(JSON.stringify(body)).toString('base64');
}

export const encodeHeaderJson = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
