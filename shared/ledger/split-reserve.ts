import type { EntityManager } from '@mikro-orm/postgresql';
import { reserve, withLedgerLocks, type TransferInput } from './transfers.js';
import type { LedgerTransfer } from './transfer-record.js';

type SplitReserveInput = Omit<TransferInput, 'debit'> & { debits: [first: string, second: string] };

/**
 * Holds `amount` from two accounts: all the first has available, up to the amount, and the rest
 * from the second, in one transaction (both holds or neither). Prepaid credits with a publisher
 * are spent this way before the wallet, down to the last micro-dollar, instead of leaving a
 * remainder smaller than any call (reserveFromFirst refuses to pass over such a remainder). The
 * accounts are locked first, and a deadlock runs it all again (withLedgerLocks). Null when both
 * together do not cover the amount. The parts' idempotency keys are the key, and the key +
 * `:rest`; a split is not replayable (the amounts depend on the balances at the time), so each
 * call must bring a fresh key, as paid calls do.
 */
export async function reserveSplit(em: EntityManager, input: SplitReserveInput): Promise<[LedgerTransfer] | [LedgerTransfer, LedgerTransfer] | null> {
  const [first, second] = input.debits;
  return withLedgerLocks(em, { accounts: [first, second, input.credit] }, async (tx, locked) => {
    const available = (id: string) => {
      const found = locked.get(id) ?? 0n;
      return found > 0n ? found : 0n;
    };
    const fromFirst = available(first) < input.amount ? available(first) : input.amount;
    if (fromFirst + available(second) < input.amount) return null;
    const { debits: _debits, ...common } = input;
    if (fromFirst === 0n) return [await reserve(tx, { ...common, debit: second })];
    const held = await reserve(tx, { ...common, debit: first, amount: fromFirst });
    if (fromFirst === input.amount) return [held];
    return [held, await reserve(tx, { ...common, idempotencyKey: `${input.idempotencyKey}:rest`, debit: second, amount: input.amount - fromFirst })];
  });
}
