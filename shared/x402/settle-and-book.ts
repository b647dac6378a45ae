import type { EntityManager } from '@mikro-orm/postgresql';
import type { LedgerTransfer } from '../ledger/index.js';
import type { Logger } from '../logger.js';
import { bookSettledPayment, keepUnbooked, type PlannedTransfer } from './booking.js';
import { markPayment, type PaymentKey } from './payments.js';
import type { PaymentTerms } from './requirements.js';
import { settlePayment, SettlementUnknown, type Settlement, type SettlementOptions } from './settle.js';
import type { VerifiedPayment } from './verify.js';

export interface SettledPayment {
  settlement: Settlement;
  /** The transfers booked; null when booking failed and the payment was kept `settled_unbooked` for the sweep. */
  booked: LedgerTransfer[] | null;
}

/**
 * Settles a recorded payment and books what it pays for, for calls and deposits alike. `plan`
 * gives the transfers for a ledger reference: the transaction once settled, the nonce before. A
 * settlement without a clear answer may have gone on-chain: the payment is kept `settle_unknown`
 * with its plan, never marked failed, and SettlementUnknown is rethrown. Any other failure marks
 * it failed and is rethrown.
 */
export async function settleAndBook(
  em: EntityManager,
  key: PaymentKey,
  payment: VerifiedPayment,
  terms: PaymentTerms,
  options: SettlementOptions,
  plan: (reference: string) => PlannedTransfer[],
  log: Logger,
): Promise<SettledPayment> {
  let settlement: Settlement;
  try {
    settlement = await settlePayment(payment, terms, options);
  } catch (error) {
    if (error instanceof SettlementUnknown) await keepUnbooked(em, key, 'settle_unknown', plan(key.nonce), null, error, log);
    else await markPayment(em, key, 'failed');
    throw error;
  }
  const transaction = settlement.transaction || null;
  return { settlement, booked: await bookSettledPayment(em, key, plan(transaction || key.nonce), transaction, log) };
}
