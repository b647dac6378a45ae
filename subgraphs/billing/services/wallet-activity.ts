import type { EntityManager } from '@mikro-orm/postgresql';

/** Ledger kinds that pay a publisher from a payer's wallet or credits (paid calls, publishers' charges). */
export const PAID_TO_PUBLISHER_KINDS = ['charge', 'publisher_charge'];
/** Ledger kinds that credit a payer's wallet or credits, by the information line that shows them. */
const CREDITED_ITEMS: Record<string, string> = {
  deposit: 'deposits',
  bonus: 'credits',
  claim: 'credits',
  referral: 'credits',
  refund: 'refunds',
  publisher_refund: 'refunds',
  slash: 'refunds',
};

export interface WalletActivity {
  ownerId: string;
  /** paid_calls (per publisher), deposits, credits or refunds. */
  item: string;
  publisherId: string | null;
  count: number;
  amount: bigint;
}

/**
 * What users' wallets and credits did in [start, end), from the ledger: money paid to each
 * publisher, and money that came in, per owner. `ownerIds` limits it to some users (null: all).
 */
export async function readWalletActivity(em: EntityManager, start: Date, end: Date, ownerIds: string[] | null): Promise<WalletActivity[]> {
  const owners = ownerIds ? `{${ownerIds.join(',')}}` : null;
  const rows = await em.execute(
    `select a.owner_id, 'paid_calls' as item, c.publisher_id, count(*)::int as count, sum(t.amount)::text as amount
       from ledger_transfer t join ledger_account a on a.id = t.debit_account_id join ledger_account c on c.id = t.credit_account_id
      where t.created_at >= ? and t.created_at < ? and t.type in ('transfer', 'post') and t.amount > 0
        and t.kind = any(?::text[]) and a.owner_id is not null and (?::uuid[] is null or a.owner_id = any(?::uuid[]))
      group by a.owner_id, c.publisher_id
     union all
     select a.owner_id, (?::jsonb ->> t.kind) as item, null, count(*)::int, sum(t.amount)::text
       from ledger_transfer t join ledger_account a on a.id = t.credit_account_id
      where t.created_at >= ? and t.created_at < ? and t.type in ('transfer', 'post') and t.amount > 0
        and t.kind = any(?::text[]) and a.owner_id is not null and (?::uuid[] is null or a.owner_id = any(?::uuid[]))
      group by a.owner_id, (?::jsonb ->> t.kind)`,
    [
      start, end, `{${PAID_TO_PUBLISHER_KINDS.join(',')}}`, owners, owners,
      JSON.stringify(CREDITED_ITEMS), start, end, `{${Object.keys(CREDITED_ITEMS).join(',')}}`, owners, owners, JSON.stringify(CREDITED_ITEMS),
    ],
  );
  return rows.map((row: Record<string, any>) => ({
    ownerId: row.owner_id,
    item: row.item,
    publisherId: row.publisher_id ?? null,
    count: row.count,
    amount: BigInt(row.amount),
  }));
}
