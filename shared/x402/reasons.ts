/**
 * The `error` values the `x402` package's own schema accepts in a 402 body (its ErrorReason enum,
 * EVM and generic ones): we answer only these, so unmodified x402 clients parse our answers.
 */
export const X402_REASONS = [
  'insufficient_funds',
  'invalid_exact_evm_payload_authorization_valid_after',
  'invalid_exact_evm_payload_authorization_valid_before',
  'invalid_exact_evm_payload_authorization_value',
  'invalid_exact_evm_payload_signature',
  'invalid_exact_evm_payload_undeployed_smart_wallet',
  'invalid_exact_evm_payload_recipient_mismatch',
  'invalid_network',
  'invalid_payload',
  'invalid_payment_requirements',
  'invalid_scheme',
  'invalid_payment',
  'payment_expired',
  'unsupported_scheme',
  'invalid_x402_version',
  'invalid_transaction_state',
  'unexpected_settle_error',
  'unexpected_verify_error',
  'duplicate_settlement',
] as const;

export type X402Reason = (typeof X402_REASONS)[number];

const KNOWN = new Set<string>(X402_REASONS);

/** A facilitator's reason when it is one clients know, else the generic one. */
export const knownReason = (reason: unknown, fallback: X402Reason): X402Reason =>
  typeof reason === 'string' && KNOWN.has(reason) ? (reason as X402Reason) : fallback;
