import type { EntityManager } from '@mikro-orm/postgresql';

export interface LedgerCheck {
  ok: boolean;
  accounts: number;
  transfers: number;
  /** Sum over all accounts of credits - debits, posted and pending: both must be 0. */
  postedSum: bigint;
  pendingSum: bigint;
  /** Accounts whose stored totals differ from the sums of their transfers. */
  mismatched: { accountId: string; column: string; stored: bigint; fromTransfers: bigint }[];
  /** Accounts that break their own no-overdraft rule (the CHECK constraint should make this impossible). */
  overdrawn: string[];
  /**
   * Holds settled wrongly (posted twice, posted and voided, posted above their amount, closed
   * without a settlement, or settled while pending) and settlements that name no hold or move
   * between other accounts than their hold's.
   */
  badSettlements: string[];
}

const BAD_SETTLEMENTS_SQL = `
with settlements as (
  select pending_id, count(*) filter (where type = 'post') as posts, count(*) filter (where type = 'void') as voids,
    coalesce(sum(amount) filter (where type = 'post'), 0) as posted
  from ledger_transfer where pending_id is not null group by pending_id
)
select r.id from ledger_transfer r left join settlements s on s.pending_id = r.id
where r.type = 'reserve' and (
  (r.state = 'pending' and s.pending_id is not null)
  or (r.state = 'posted' and (coalesce(s.posts, 0) <> 1 or s.voids <> 0 or s.posted > r.amount))
  or (r.state = 'voided' and (coalesce(s.voids, 0) <> 1 or s.posts <> 0)))
union all
select t.id from ledger_transfer t left join ledger_transfer r on r.id = t.pending_id
where t.pending_id is not null
  and (r.type is distinct from 'reserve' or t.debit_account_id <> r.debit_account_id or t.credit_account_id <> r.credit_account_id)`;

const RECOMPUTE_SQL = `
with moves as (
  select debit_account_id as account_id,
    case when type in ('transfer', 'post') then amount else 0 end as debits_posted, 0::bigint as credits_posted,
    case when type = 'reserve' and state = 'pending' then amount else 0 end as debits_pending, 0::bigint as credits_pending
  from ledger_transfer
  union all
  select credit_account_id, 0, case when type in ('transfer', 'post') then amount else 0 end,
    0, case when type = 'reserve' and state = 'pending' then amount else 0 end
  from ledger_transfer
), sums as (
  select account_id, sum(debits_posted) dp, sum(credits_posted) cp, sum(debits_pending) dpe, sum(credits_pending) cpe
  from moves group by account_id
)
select a.id, a.debits_posted, a.credits_posted, a.debits_pending, a.credits_pending,
  coalesce(s.dp, 0) as dp, coalesce(s.cp, 0) as cp, coalesce(s.dpe, 0) as dpe, coalesce(s.cpe, 0) as cpe
from ledger_account a left join sums s on s.account_id = a.id
where a.debits_posted <> coalesce(s.dp, 0) or a.credits_posted <> coalesce(s.cp, 0)
   or a.debits_pending <> coalesce(s.dpe, 0) or a.credits_pending <> coalesce(s.cpe, 0)`;

const COLUMNS: [string, string][] = [
  ['debits_posted', 'dp'],
  ['credits_posted', 'cp'],
  ['debits_pending', 'dpe'],
  ['credits_pending', 'cpe'],
];

/**
 * The ledger's invariants, read in one repeatable-read snapshot: money is conserved (every
 * account's sums add up to zero), every account's totals are exactly the sum of its transfers,
 * and every hold is settled once, by a settlement between its own accounts and within its amount.
 */
export async function checkLedger(em: EntityManager): Promise<LedgerCheck> {
  return em.fork().transactional(
    async (tx) => {
      const db = tx as EntityManager;
      const [totals] = await db.execute(
        `select count(*) as accounts, coalesce(sum(credits_posted - debits_posted), 0) as posted,
           coalesce(sum(credits_pending - debits_pending), 0) as pending from ledger_account`,
      );
      const [transfers] = await db.execute('select count(*) as count from ledger_transfer');
      const rows = await db.execute(RECOMPUTE_SQL);
      const overdrawn = await db.execute(
        'select id from ledger_account where no_overdraft and credits_posted - debits_posted - debits_pending < 0',
      );
      const badSettlements = await db.execute(BAD_SETTLEMENTS_SQL);
      const mismatched = rows.flatMap((row: Record<string, any>) =>
        COLUMNS.filter(([stored, computed]) => BigInt(row[stored]) !== BigInt(row[computed])).map(([stored, computed]) => ({
          accountId: row.id as string,
          column: stored,
          stored: BigInt(row[stored]),
          fromTransfers: BigInt(row[computed]),
        })),
      );
      const postedSum = BigInt(totals.posted);
      const pendingSum = BigInt(totals.pending);
      return {
        ok: postedSum === 0n && pendingSum === 0n && mismatched.length === 0 && overdrawn.length === 0 && badSettlements.length === 0,
        accounts: Number(totals.accounts),
        transfers: Number(transfers.count),
        postedSum,
        pendingSum,
        mismatched,
        overdrawn: overdrawn.map((row: Record<string, any>) => row.id as string),
        badSettlements: badSettlements.map((row: Record<string, any>) => row.id as string),
      };
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}
