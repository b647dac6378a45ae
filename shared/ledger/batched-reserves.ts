import type { Pool } from 'pg';
import { runPooledStatement } from './statements.js';
import { TRANSFER_COLUMNS, transferFromRow, type LedgerTransfer } from './transfer-record.js';

/** One linked reserve (see reserveFromFirst), ready for a batch. */
export interface ReserveItem {
  id: string;
  idempotencyKey: string;
  preferred: string;
  fallback: string;
  credit: string;
  amount: bigint;
  kind: string;
  reference: string | null;
  /** JSON text or null. */
  metadata: string | null;
}

/**
 * Many linked reserves in one statement. The accounts involved are locked first, in id order (so
 * batches never deadlock one another), and every check uses the values read under those locks.
 * Each item holds on its preferred account when that covers it, else on its fallback when the
 * preferred has nothing available (one with a part of it is left out, for reserveSplit); items on the
 * same account are taken in order while their running total fits the available balance. Each
 * account row is updated once, with the sum of its items. Items already recorded (a replay) or
 * that do not fit are left out: their caller runs them alone, which answers the replay or the 402.
 */
const RESERVE_BATCH_SQL = `
with input as (
  select * from unnest(?::uuid[], ?::text[], ?::uuid[], ?::uuid[], ?::uuid[], ?::bigint[], ?::text[], ?::text[], ?::jsonb[])
    with ordinality as i(id, idempotency_key, preferred, fallback, credit, amount, kind, reference, metadata, ord)
), locked as materialized (
  select id, no_overdraft, credits_posted - debits_posted - debits_pending as available
  from ledger_account
  where id in (select preferred from input union select fallback from input union select credit from input)
  order by id
  for no key update
), picked as (
  select i.*, case
      when p.id is not null and (not p.no_overdraft or p.available >= i.amount) then i.preferred
      when p.id is null or p.available <= 0 then i.fallback
    end as debit
  from input i left join locked p on p.id = i.preferred
  where not exists (select 1 from ledger_transfer t where t.idempotency_key = i.idempotency_key)
), accepted as materialized (
  select * from (
    select pk.*, a.no_overdraft, a.available, sum(pk.amount) over (partition by pk.debit order by pk.ord) as running_total
    from picked pk join locked a on a.id = pk.debit
  ) running
  where not no_overdraft or running_total <= available
), moved as (
  update ledger_account a set debits_pending = a.debits_pending + m.debits, credits_pending = a.credits_pending + m.credits
  from (
    select account, sum(debits) as debits, sum(credits) as credits from (
      select debit as account, amount as debits, 0::bigint as credits from accepted
      union all select credit, 0, amount from accepted
    ) sides group by account
  ) m
  where a.id = m.account
  returning a.id
)
insert into ledger_transfer (id, idempotency_key, type, state, debit_account_id, credit_account_id, amount, kind, reference, metadata)
select id, idempotency_key, 'reserve', 'pending', debit, credit, amount, kind, reference, metadata from accepted
returning ${TRANSFER_COLUMNS}`;

/** The transfer of each item the batch held, or null for items it left out. */
export async function reserveBatch(pool: Pool, items: ReserveItem[]): Promise<(LedgerTransfer | null)[]> {
  const column = <T>(pick: (item: ReserveItem) => T) => items.map(pick);
  const rows = await runPooledStatement(pool, RESERVE_BATCH_SQL, [
    column((item) => item.id),
    column((item) => item.idempotencyKey),
    column((item) => item.preferred),
    column((item) => item.fallback),
    column((item) => item.credit),
    column((item) => item.amount.toString()),
    column((item) => item.kind),
    column((item) => item.reference),
    column((item) => item.metadata),
  ]);
  const byId = new Map(rows.map((row) => [row.id as string, transferFromRow(row)]));
  return items.map((item) => byId.get(item.id) ?? null);
}
