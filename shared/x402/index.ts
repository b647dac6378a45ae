/** x402 "exact" payments (EIP-3009 on EVM): requirements, verification, replay record, settlement. Used by the wallet and the paid proxy. */
export { findNetwork, sameAddress, X402_NETWORKS, type X402Network } from './networks.js';
export { encodeHeaderJson, paymentRequiredBody, paymentRequiredHeader, requirementsV1, type PaymentRequirementsV1, type PaymentTerms } from './requirements.js';
export { decodePaymentHeader, PaymentRejected, transferWithAuthorizationTypes, verifyExactPayment, VALIDITY_MARGIN_SECONDS, type Authorization, type VerifiedPayment } from './verify.js';
export { settlePayment, SettlementUnknown, type Settlement, type SettlementOptions } from './settle.js';
export { settleAndBook } from './settle-and-book.js';
export { markPayment, paymentKey, recordPayment, type PaymentKey } from './payments.js';
export { bookSettledPayment, keepUnbooked, paymentKeyStem, storedPlan, type PlannedAccount, type PlannedTransfer } from './booking.js';
export { bookAllUnbookedPayments, bookUnbookedPayments, listUnsettledPayments, resolveUnknownPayment, type Bookkeeper, type UnknownOutcome } from './reconcile.js';
export { ChainChecker } from './chain-check.js';
export { resolveUnknownPaymentsOnChain, type ChainSweepOptions } from './chain-resolve.js';
export { chainCheckers, startPaymentSweeper } from './sweeper.js';
export { knownReason, X402_REASONS, type X402Reason } from './reasons.js';
export { x402Migrations } from './migrations.js';
export { PaymentRequired, paymentHeaderOf, paymentReceiptHeaders, sendPaymentRequired } from './http.js';
