import type { EntityManager } from '@mikro-orm/postgresql';
import type { SystemAccountKind } from './accounts.js';
import { TRANSFER_COLUMNS, transferFromRow, type LedgerTransfer } from './transfer-record.js';

/** Micro-dollars. `posted` = credits - debits posted; `held` = pending debits (reserves); `available` = posted - held. */
export interface AccountBalance {
  posted: bigint;
  held: bigint;
  /** Pending credits on their way in (e.g. a reserve towards this account). */
  incoming: bigint;
  available: bigint;
}

const ZERO: AccountBalance = { posted: 0n, held: 0n, incoming: 0n, available: 0n };

const BALANCE_COLUMNS = `sum(credits_posted - debits_posted) as posted, sum(debits_pending) as held, sum(credits_pending) as incoming`;

function balanceFromRow(row: Record<string, any> | undefined): AccountBalance {
  if (!row || row.posted === null) return ZERO;
  const posted = BigInt(row.posted);
  const held = BigInt(row.held);
  return { posted, held, incoming: BigInt(row.incoming), available: posted - held };
}

/** Balance of one account (zero when it does not exist yet). */
export async function getAccountBalance(em: EntityManager, accountId: string): Promise<AccountBalance> {
  const [row] = await em.execute(`select ${BALANCE_COLUMNS} from ledger_account where id = ?`, [accountId]);
  return balanceFromRow(row);
}

/** Balances of many accounts in one query (missing accounts are zero). */
export async function getAccountBalances(em: EntityManager, accountIds: string[]): Promise<Map<string, AccountBalance>> {
  const result = new Map(accountIds.map((id) => [id, ZERO]));
  if (accountIds.length === 0) return result;
  const rows = await em.execute(
    `select id, ${BALANCE_COLUMNS} from ledger_account where id = any(?::uuid[]) group by id`,
    [`{${accountIds.join(',')}}`],
  );
  for (const row of rows) result.set(row.id, balanceFromRow(row));
  return result;
}

/** A system account's balance: the sum of its shards. */
export async function getSystemBalance(em: EntityManager, kind: SystemAccountKind, publisherId?: string): Promise<AccountBalance> {
  const [row] = await em.execute(
    `select ${BALANCE_COLUMNS} from ledger_account where kind = ? and owner_id is null and publisher_id is not distinct from ?::uuid`,
    [kind, publisherId ?? null],
  );
  return balanceFromRow(row);
}

export interface PrepaidBalance {
  publisherId: string;
  balance: AccountBalance;
}

/** The user's prepaid credits, one entry per publisher. */
export async function listPrepaidBalances(em: EntityManager, userId: string): Promise<PrepaidBalance[]> {
  const rows = await em.execute(
    `select publisher_id, ${BALANCE_COLUMNS} from ledger_account where owner_id = ? and kind = 'prepaid' group by publisher_id order by publisher_id`,
    [userId],
  );
  return rows.map((row: Record<string, any>) => ({ publisherId: row.publisher_id, balance: balanceFromRow(row) }));
}

/** Posted movements touching any of the accounts, newest first. */
export async function listAccountTransfers(
  em: EntityManager,
  accountIds: string[],
  page: { limit: number; offset: number },
): Promise<LedgerTransfer[]> {
  if (accountIds.length === 0) return [];
  const ids = `{${accountIds.join(',')}}`;
  const rows = await em.execute(
    `select ${TRANSFER_COLUMNS} from ledger_transfer where (debit_account_id = any(?::uuid[]) or credit_account_id = any(?::uuid[]))
       and type in ('transfer', 'post') and amount > 0
     order by created_at desc, id desc limit ? offset ?`,
    [ids, ids, page.limit, page.offset],
  );
  return rows.map((row: Record<string, any>) => transferFromRow(row));
}

/** Ids of every account a user owns (wallet and prepaid credits). */
export async function listOwnedAccountIds(em: EntityManager, ownerId: string): Promise<string[]> {
  const rows = await em.execute('select id from ledger_account where owner_id = ?', [ownerId]);
  return rows.map((row: Record<string, any>) => row.id as string);
}

/** Total posted credits of one kind into an account (e.g. referral bonuses earned). */
export async function sumCredits(em: EntityManager, accountId: string, kind: string): Promise<bigint> {
  const [row] = await em.execute(
    `select coalesce(sum(amount), 0) as total from ledger_transfer where credit_account_id = ? and kind = ? and type in ('transfer', 'post')`,
    [accountId, kind],
  );
  return BigInt(row?.total ?? 0);
}
