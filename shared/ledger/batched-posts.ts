import type { Pool } from 'pg';
import { runPooledStatement } from './statements.js';
import { TRANSFER_COLUMNS, transferFromRow, type LedgerTransfer } from './transfer-record.js';

/** One linked post (see postPendingWithFee, fee > 0), ready for a batch. */
export interface PostItem {
  pendingId: string;
  amount: bigint;
  fee: bigint;
  feeAccount: string;
  feeId: string;
  feeIdempotencyKey: string;
  postId: string;
  idempotencyKey: string;
  kind: string | null;
  reference: string | null;
  /** JSON text or null. */
  metadata: string | null;
}

/**
 * Many linked posts in one statement. The reserves are locked first, then every account involved,
 * in id order (so batches never deadlock one another); checks and balances use the values read
 * under those locks. Each account row is updated once, with the sum of its items, and each
 * transfer records the balance after it as if the items had run one by one in order. A reserve
 * named twice is settled by its first item only; items already recorded (a replay), for a reserve
 * no longer pending or held for less are left out, and their caller runs them alone.
 *
 * Per item, in order: (1) the debit side posts the amount, (2) the reserve's credit side earns it,
 * (3) that side pays the fee, (4) the fee account earns it.
 */
const POST_BATCH_SQL = `
with input as (
  select * from unnest(?::uuid[], ?::bigint[], ?::bigint[], ?::uuid[], ?::uuid[], ?::text[], ?::uuid[], ?::text[], ?::text[], ?::text[], ?::jsonb[])
    with ordinality as i(pending_id, amount, fee, fee_account, fee_id, fee_key, post_id, post_key, kind, reference, metadata, ord)
), reserves as materialized (
  select id, debit_account_id, credit_account_id, amount as reserved, kind, reference
  from ledger_transfer
  where id in (select pending_id from input) and type = 'reserve' and state = 'pending'
  order by id
  for no key update
), accepted as materialized (
  select * from (
    select i.*, r.debit_account_id, r.credit_account_id, r.reserved, r.kind as reserve_kind, r.reference as reserve_reference,
      row_number() over (partition by i.pending_id order by i.ord) as nth
    from input i join reserves r on r.id = i.pending_id
    where r.reserved >= i.amount and i.fee <= i.amount
      and not exists (select 1 from ledger_transfer t where t.idempotency_key in (i.post_key, i.fee_key))
  ) candidates
  where nth = 1
), locked as materialized (
  select id, credits_posted - debits_posted as balance
  from ledger_account
  where id in (select debit_account_id from accepted union select credit_account_id from accepted union select fee_account from accepted)
  order by id
  for no key update
), entries as (
  select ord, 1 as step, debit_account_id as account, -reserved as debits_pending, amount as debits_posted, 0::bigint as credits_pending, 0::bigint as credits_posted from accepted
  union all select ord, 2, credit_account_id, 0, 0, -reserved, amount from accepted
  union all select ord, 3, credit_account_id, 0, fee, 0, 0 from accepted
  union all select ord, 4, fee_account, 0, 0, 0, fee from accepted
), balances as (
  select e.ord, e.step, l.balance + sum(e.credits_posted - e.debits_posted) over (partition by e.account order by e.ord, e.step) as balance_after
  from entries e join locked l on l.id = e.account
), settled_items as materialized (
  -- one row per item with its four balances after: a single join on ord (joining the balances
  -- once per step made the planner loop over every pair, quadratic in the batch size)
  select x.*, b.debit_after, b.credit_after, b.fee_payer_after, b.fee_account_after
  from accepted x join (
    select ord,
      max(balance_after) filter (where step = 1) as debit_after,
      max(balance_after) filter (where step = 2) as credit_after,
      max(balance_after) filter (where step = 3) as fee_payer_after,
      max(balance_after) filter (where step = 4) as fee_account_after
    from balances group by ord
  ) b on b.ord = x.ord
), moved as (
  update ledger_account a set
    debits_pending = a.debits_pending + m.debits_pending, debits_posted = a.debits_posted + m.debits_posted,
    credits_pending = a.credits_pending + m.credits_pending, credits_posted = a.credits_posted + m.credits_posted
  from (
    select account, sum(debits_pending) as debits_pending, sum(debits_posted) as debits_posted,
      sum(credits_pending) as credits_pending, sum(credits_posted) as credits_posted
    from entries group by account
  ) m
  where a.id = m.account
  returning a.id
), settled as (
  update ledger_transfer t set state = 'posted' from accepted x where t.id = x.pending_id
  returning t.id
), fees as (
  insert into ledger_transfer (id, idempotency_key, type, state, debit_account_id, credit_account_id, amount, kind, reference, debit_balance_after, credit_balance_after)
  select x.fee_id, x.fee_key, 'transfer', 'posted', x.credit_account_id, x.fee_account, x.fee, 'gateway_fee', x.reserve_reference, x.fee_payer_after, x.fee_account_after
  from settled_items x
  returning id
)
insert into ledger_transfer (id, idempotency_key, type, state, debit_account_id, credit_account_id, amount, pending_id, kind, reference, metadata, debit_balance_after, credit_balance_after)
select x.post_id, x.post_key, 'post', 'posted', x.debit_account_id, x.credit_account_id, x.amount, x.pending_id,
  coalesce(x.kind, x.reserve_kind), coalesce(x.reference, x.reserve_reference), x.metadata, x.debit_after, x.credit_after
from settled_items x
returning ${TRANSFER_COLUMNS}`;

/** The post transfer of each item the batch settled, or null for items it left out. */
export async function postBatch(pool: Pool, items: PostItem[]): Promise<(LedgerTransfer | null)[]> {
  const column = <T>(pick: (item: PostItem) => T) => items.map(pick);
  const rows = await runPooledStatement(pool, POST_BATCH_SQL, [
    column((item) => item.pendingId),
    column((item) => item.amount.toString()),
    column((item) => item.fee.toString()),
    column((item) => item.feeAccount),
    column((item) => item.feeId),
    column((item) => item.feeIdempotencyKey),
    column((item) => item.postId),
    column((item) => item.idempotencyKey),
    column((item) => item.kind),
    column((item) => item.reference),
    column((item) => item.metadata),
  ]);
  const byId = new Map(rows.map((row) => [row.id as string, transferFromRow(row)]));
  return items.map((item) => byId.get(item.postId) ?? null);
}
