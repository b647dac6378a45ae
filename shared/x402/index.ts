/** x402 "exact" payments (EIP-3009 on EVM): requirements, verification, replay record, settlement. Used by the wallet and the paid proxy. */
export { checksummedAddress, findNetwork } from './networks.js';
export { payeeOf, type Payee } from './payee.js';
export { DEFAULT_MAX_TIMEOUT_SECONDS, type PaymentTerms } from './requirements.js';
export { decodePaymentHeader, PaymentRejected, transferWithAuthorizationTypes, verifyExactPayment, type Authorization, type VerifiedPayment } from './verify.js';
export { checkPayment, SettlementUnknown, type Settlement } from './settle.js';
export { settleAndBook } from './settle-and-book.js';
export { markPayment, paymentKey, recordPayment, type PaymentKey } from './payments.js';
export { paymentKeyStem, storedPlan, type PlannedAccount, type PlannedTransfer } from './booking.js';
export { bookAllUnbookedPayments, bookUnbookedPayments, listUnsettledPayments, resolveUnknownPayment, type Bookkeeper, type UnknownOutcome } from './reconcile.js';
export { ChainChecker } from './chain-check.js';
export { resolveUnknownPaymentsOnChain, type ChainSweepOptions } from './chain-resolve.js';
export { chainCheckers, startPaymentSweeper } from './sweeper.js';
export { x402Migrations } from './migrations.js';
export { PaymentRequired, paymentHeaderOf, paymentReceiptHeaders, sendPaymentRequired } from './http.js';
