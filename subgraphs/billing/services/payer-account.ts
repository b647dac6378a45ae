import { prepaidAccountId, walletAccountId } from '../../../shared/ledger/index.js';
import type { Charge } from '../entities/charge.js';

/** The account a charge took its money from, where refunds and slashes return it. */
export const payerAccountOf = (charge: Charge): string =>
  charge.source === 'credits' ? prepaidAccountId(charge.payerUserId, charge.publisherId) : walletAccountId(charge.payerUserId);
