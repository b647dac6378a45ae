import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest } from '../errors.js';
import { idempotencyConflict } from './errors.js';
import { AFTER_LOCKS, checkMove, json, runMoneyStatement, type TransferInput } from './transfers.js';
import { runLedgerStatement } from './statements.js';
import { TRANSFER_COLUMNS, transferFromRow, type LedgerTransfer } from './transfer-record.js';

type SplitReserveInput = Omit<TransferInput, 'debit'> & { debits: [first: string, second: string] };
type SplitHold = [LedgerTransfer] | [LedgerTransfer, LedgerTransfer];

/**
 * Both parts of a split in one statement. The three accounts are locked first, in id order (as
 * every ledger statement locks), and the amounts come from the balances read under those locks:
 * all the first has available, up to the amount, and the rest from the second, only when the second
 * covers that rest (both parts or neither). Each account row is updated once.
 */
const SPLIT_RESERVE_SQL = `
with input as (
  select ?::uuid as first, ?::uuid as second, ?::uuid as credit, ?::bigint as amount, ?::uuid as first_id, ?::uuid as rest_id,
    ?::text as idempotency_key, ?::text as kind, ?::text as reference, ?::jsonb as metadata
), locked as materialized (
  select id, no_overdraft, credits_posted - debits_posted - debits_pending as available
  from ledger_account
  where id in (select first from input union all select second from input union all select credit from input)
  order by id
  for no key update
), planned as (
  select i.*, least(greatest(coalesce(f.available, 0), 0), i.amount) as from_first
  from input i left join locked f on f.id = i.first
), covered as (
  select p.* from planned p
  where p.from_first = p.amount
    or exists (select 1 from locked s where s.id = p.second and (not s.no_overdraft or s.available >= p.amount - p.from_first))
), parts as materialized (
  select first_id as id, idempotency_key, first as debit, from_first as amount from covered where from_first > 0
  union all
  select rest_id, case when from_first = 0 then idempotency_key else idempotency_key || ':rest' end, second, amount - from_first
  from covered where from_first < amount
), moved as (
  update ledger_account a set debits_pending = a.debits_pending + m.debits, credits_pending = a.credits_pending + m.credits
  from (
    select debit as account, amount as debits, 0::bigint as credits from parts
    union all select credit, 0, amount from covered
  ) m
  where a.id = m.account and ${AFTER_LOCKS}
  returning a.id
)
insert into ledger_transfer (id, idempotency_key, type, state, debit_account_id, credit_account_id, amount, kind, reference, metadata)
select p.id, p.idempotency_key, 'reserve', 'pending', p.debit, c.credit, p.amount, c.kind, c.reference, c.metadata
from parts p, covered c
returning ${TRANSFER_COLUMNS}`;

/** The parts in the order of the debits (the first account's part first). */
function inDebitOrder(parts: LedgerTransfer[], first: string): SplitHold {
  return [...parts].sort((a, b) => Number(b.debitAccountId === first) - Number(a.debitAccountId === first)) as SplitHold;
}

/** What an earlier split under the same key held; a conflict when those are not holds of this amount between these accounts. */
async function replayOf(em: EntityManager, input: SplitReserveInput): Promise<SplitHold | null> {
  const keys = [input.idempotencyKey, `${input.idempotencyKey}:rest`];
  const rows = await runLedgerStatement(em, `select ${TRANSFER_COLUMNS} from ledger_transfer where idempotency_key in (?, ?)`, keys);
  if (rows.length === 0) return null;
  const parts = rows.map((row) => transferFromRow(row, true));
  const sameSplit =
    parts.every((part) => part.type === 'reserve' && input.debits.includes(part.debitAccountId) && part.creditAccountId === input.credit) &&
    parts.reduce((sum, part) => sum + part.amount, 0n) === input.amount;
  if (!sameSplit) throw idempotencyConflict();
  return inDebitOrder(parts, input.debits[0]);
}

/**
 * Holds `amount` from two accounts: all the first has available, up to the amount, and the rest
 * from the second, in one statement (both holds or neither). Prepaid credits with a publisher are
 * spent this way before the wallet, down to the last micro-dollar, instead of leaving a remainder
 * smaller than any call (reserveFromFirst refuses to pass over such a remainder). A deadlock runs
 * it again. Null when both together do not cover the amount. The parts' idempotency keys are the
 * key, and the key + `:rest`; a repeat of the key answers the parts the first made (the amounts
 * depend on the balances at the time, so they are not worked out again).
 */
export async function reserveSplit(em: EntityManager, input: SplitReserveInput): Promise<SplitHold | null> {
  const [first, second] = input.debits;
  checkMove({ ...input, debit: first });
  if (second === first || second === input.credit) throw badRequest('same_account', 'A transfer needs two different accounts');
  const params = [
    first, second, input.credit, input.amount.toString(), randomUUID(), randomUUID(),
    input.idempotencyKey, input.kind, input.reference ?? null, json(input.metadata),
  ];
  return runMoneyStatement(em, {
    sql: SPLIT_RESERVE_SQL,
    params,
    replay: () => replayOf(em, input),
    answer: (rows) => (rows.length === 0 ? null : inDebitOrder(rows.map((row) => transferFromRow(row)), first)),
  });
}
