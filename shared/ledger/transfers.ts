import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { retriedTransaction } from '../db/retried-transaction.js';
import { badRequest, conflict } from '../errors.js';
import { isUuid } from '../ids.js';
import {
  amountExceedsReserve,
  idempotencyConflict,
  insufficientBalance,
  isForeignKeyViolation,
  isRetryable,
  isUniqueViolation,
  ledgerAccountMissing,
  PartlyCovered,
  pendingTransferClosed,
  pendingTransferNotFound,
} from './errors.js';
import { getAccountBalance } from './balances.js';
import { ledgerBatchers, type LedgerBatchers } from './batchers.js';
import { runLedgerStatement } from './statements.js';
import { TRANSFER_COLUMNS, transferFromRow, type LedgerTransfer } from './transfer-record.js';

export interface TransferInput {
  /** Unique per movement: a replay with the same key returns the first result and moves nothing. */
  idempotencyKey: string;
  debit: string;
  credit: string;
  /** Micro-dollars, > 0. */
  amount: bigint;
  /** What the movement is for the user: deposit, charge, refund, bonus, claim, referral, ... */
  kind: string;
  reference?: string | null;
  metadata?: Record<string, unknown> | null;
}

export interface SettleInput {
  pendingId: string;
  idempotencyKey: string;
  kind?: string;
  reference?: string | null;
  metadata?: Record<string, unknown> | null;
}

const MAX_ATTEMPTS = 5;

/** Rows locked in id order, the order every ledger statement locks in. */
const lockedRows = (table: 'ledger_account' | 'ledger_transfer', ids: string, columns = 'id') =>
  `select ${columns} from ${table} where id in (${ids}) order by id for no key update`;

/**
 * Every money statement first locks the accounts it touches, in id order, and its account updates
 * wait for those locks (`AFTER_LOCKS`, a one-time filter): statements sharing accounts then queue
 * instead of deadlocking, whichever sides they debit and credit, singly or in batches (see
 * batched-*.ts). A reserve row is always locked before accounts.
 */
const lockAccounts = (ids: string) => `locked as materialized (
  ${lockedRows('ledger_account', ids)}
)`;
export const AFTER_LOCKS = '(select count(*) from locked) >= 0';

/**
 * One statement moves the money: the debit side is updated only if its no-overdraft rule holds
 * (`credits_posted - debits_posted - debits_pending >= amount`), the credit side only if the debit
 * happened, and the transfer row is inserted whenever the debit happened. A duplicate idempotency key
 * makes the whole statement fail, so nothing moves twice; so does a missing credit account (the row's
 * foreign key), so a debit can never commit without its transfer.
 */
const MOVE_SQL = (column: 'posted' | 'pending', type: 'transfer' | 'reserve', state: 'posted' | 'pending') => `
with ${lockAccounts('?, ?')}, d as (
  update ledger_account set debits_${column} = debits_${column} + ?::bigint
  where id = ? and (not no_overdraft or credits_posted - debits_posted - debits_pending >= ?::bigint) and ${AFTER_LOCKS}
  returning credits_posted - debits_posted as balance
), c as (
  update ledger_account set credits_${column} = credits_${column} + ?::bigint
  where id = ? and exists (select 1 from d)
  returning credits_posted - debits_posted as balance
)
insert into ledger_transfer (id, idempotency_key, type, state, debit_account_id, credit_account_id, amount, kind, reference, metadata, debit_balance_after, credit_balance_after)
select ?, ?, '${type}', '${state}', ?, ?, ?::bigint, ?, ?, ?::jsonb, ${column === 'posted' ? 'd.balance, c.balance' : 'null, null'} from d left join c on true
returning ${TRANSFER_COLUMNS}`;

const TRANSFER_SQL = MOVE_SQL('posted', 'transfer', 'posted');
const RESERVE_SQL = MOVE_SQL('pending', 'reserve', 'pending');

/**
 * Closes a pending reserve (r) and settles its debit side (d): the hold is released and `amount` of
 * it posted. Parameters: reserve id, amount (for the `amount >= ` guard), [fee account,] amount posted.
 */
const CLOSE_RESERVE = (state: 'posted' | 'voided', feeAccount = false) => `
r as (
  update ledger_transfer set state = '${state}'
  where id = ? and type = 'reserve' and state = 'pending' and amount >= ?::bigint
  returning debit_account_id, credit_account_id, amount as reserved, kind, reference
), ${lockAccounts(`select debit_account_id from r union all select credit_account_id from r${feeAccount ? ' union all select ?::uuid' : ''}`)}, d as (
  update ledger_account a set debits_pending = a.debits_pending - r.reserved, debits_posted = a.debits_posted + ?::bigint
  from r where a.id = r.debit_account_id and ${AFTER_LOCKS}
  returning a.credits_posted - a.debits_posted as balance
)`;

/** Settles a reserve: releases the whole hold and posts `amount` of it (0 for a void), in one statement. */
const SETTLE_SQL = (type: 'post' | 'void') => `
with ${CLOSE_RESERVE(type === 'post' ? 'posted' : 'voided')}, c as (
  update ledger_account a set credits_pending = a.credits_pending - r.reserved, credits_posted = a.credits_posted + ?::bigint
  from r where a.id = r.credit_account_id and ${AFTER_LOCKS}
  returning a.credits_posted - a.debits_posted as balance
)
insert into ledger_transfer (id, idempotency_key, type, state, debit_account_id, credit_account_id, amount, pending_id, kind, reference, metadata, debit_balance_after, credit_balance_after)
select ?, ?, '${type}', '${type === 'post' ? 'posted' : 'voided'}', r.debit_account_id, r.credit_account_id,
  ${type === 'post' ? '?::bigint' : 'r.reserved'}, ?, coalesce(?, r.kind), coalesce(?, r.reference), ?::jsonb, d.balance, c.balance
from r, d, c
returning ${TRANSFER_COLUMNS}`;

const POST_SQL = SETTLE_SQL('post');
const VOID_SQL = SETTLE_SQL('void');

function checkKey(key: string) {
  if (typeof key !== 'string' || key.length < 1 || key.length > 200) {
    throw badRequest('invalid_idempotency_key', 'An idempotency key must be 1 to 200 characters');
  }
}

export function checkMove(input: TransferInput) {
  checkKey(input.idempotencyKey);
  if (typeof input.amount !== 'bigint' || input.amount <= 0n) throw badRequest('invalid_amount', 'Amount must be greater than zero');
  if (input.debit === input.credit) throw badRequest('same_account', 'A transfer needs two different accounts');
}

export const json = (value: Record<string, unknown> | null | undefined) => (value ? JSON.stringify(value) : null);

export async function findTransfer(em: EntityManager, idempotencyKey: string): Promise<LedgerTransfer | null> {
  const [row] = await runLedgerStatement(em, `select ${TRANSFER_COLUMNS} from ledger_transfer where idempotency_key = ?`, [idempotencyKey]);
  return row ? transferFromRow(row, true) : null;
}

export async function getTransfer(em: EntityManager, id: string): Promise<LedgerTransfer | null> {
  const [row] = await runLedgerStatement(em, `select ${TRANSFER_COLUMNS} from ledger_transfer where id = ?`, [id]);
  return row ? transferFromRow(row) : null;
}

type Same = (existing: LedgerTransfer) => boolean;

function replayOf(existing: LedgerTransfer, same: Same): LedgerTransfer {
  if (!same(existing)) throw idempotencyConflict();
  return existing;
}

/** One money statement, with how to find what an earlier run under the same idempotency key made. */
export interface MoneyStatement<T> {
  sql: string;
  params: unknown[];
  /** The stored result of an earlier run with the same idempotency key(s), or null when there is none. */
  replay(): Promise<T | null>;
  /** The answer from the rows the statement returned; with no rows, it moved nothing and replay found nothing. */
  answer(rows: Record<string, any>[]): T | Promise<T>;
}

/**
 * Runs one money statement. Outside a transaction a deadlock is retried (the statement rolled
 * back whole); inside the caller's transaction the key is looked up first, since a failed
 * statement would abort that transaction.
 */
export async function runMoneyStatement<T>(em: EntityManager, statement: MoneyStatement<T>): Promise<T> {
  const inTransaction = em.isInTransaction();
  if (inTransaction) {
    const existing = await statement.replay();
    if (existing) return existing;
  }
  for (let attempt = 1; ; attempt++) {
    let rows: Record<string, any>[];
    try {
      rows = await runLedgerStatement(em, statement.sql, statement.params);
    } catch (error) {
      if (isUniqueViolation(error)) {
        if (inTransaction) throw conflict('idempotency_in_progress', 'The same idempotency key is being used concurrently');
        const existing = await statement.replay();
        if (existing) return existing;
      }
      if (isRetryable(error) && !inTransaction && attempt < MAX_ATTEMPTS) continue;
      if (isForeignKeyViolation(error)) throw ledgerAccountMissing(error);
      throw error;
    }
    if (rows.length === 0) {
      const existing = await statement.replay();
      if (existing) return existing;
    }
    return statement.answer(rows);
  }
}

/**
 * Runs a statement that makes one transfer, keyed by `key`; `same` tells a replay from a conflict,
 * and `sameAlso`, when given, is asked too, only on a replay (the fee a post moved, or did not).
 */
function run(
  em: EntityManager,
  sql: string,
  params: unknown[],
  key: string,
  same: Same,
  explainEmpty: () => Promise<never>,
  sameAlso?: () => Promise<boolean>,
): Promise<LedgerTransfer> {
  return runMoneyStatement(em, {
    sql,
    params,
    replay: async () => {
      const existing = await findTransfer(em, key);
      if (!existing) return null;
      const alsoSame = sameAlso ? await sameAlso() : true;
      return replayOf(existing, (t) => same(t) && alsoSame);
    },
    answer: (rows) => (rows[0] ? transferFromRow(rows[0]) : explainEmpty()),
  });
}

async function explainRefusedMove(em: EntityManager, input: TransferInput): Promise<never> {
  const rows = await em.execute('select id from ledger_account where id in (?, ?)', [input.debit, input.credit]);
  if (rows.length < 2) throw ledgerAccountMissing();
  throw insufficientBalance();
}

async function move(em: EntityManager, sql: string, type: 'transfer' | 'reserve', input: TransferInput) {
  checkMove(input);
  const amount = input.amount.toString();
  const params = [
    input.debit, input.credit,
    amount, input.debit, amount,
    amount, input.credit,
    randomUUID(), input.idempotencyKey, input.debit, input.credit, amount, input.kind, input.reference ?? null, json(input.metadata),
  ];
  const same: Same = (t) =>
    t.type === type && t.debitAccountId === input.debit && t.creditAccountId === input.credit && t.amount === input.amount;
  return run(em, sql, params, input.idempotencyKey, same, () => explainRefusedMove(em, input));
}

/** Moves `amount` from debit to credit at once. 402 insufficient_balance when the debit side would overdraw. */
export async function transfer(em: EntityManager, input: TransferInput): Promise<LedgerTransfer> {
  return move(em, TRANSFER_SQL, 'transfer', input);
}

const placeholders = (ids: string[]) => ids.map(() => '?').join(', ');

interface LedgerLocks {
  /** Reserves the work settles. */
  reserves?: string[];
  accounts: string[];
}

/**
 * Several ledger statements that stand or fall together, in one transaction that first locks what
 * they touch: the reserves, then the accounts, each in id order (the order every ledger statement
 * locks in), so it cannot deadlock with concurrent statements while it holds the first one's
 * locks. In its own transaction, a deadlock or serialization failure (rolled back whole) runs it again, so `work` must be
 * repeatable (its statements keep their idempotency keys). Inside a caller's transaction it runs
 * in that transaction, without a savepoint: the caller must let a failure fail its transaction
 * whole (a refusal such as 402 leaves the transaction usable, and committing it would keep the
 * statements made before it). Call it there before anything else that locks ledger rows.
 */
export async function withLedgerLocks<T>(
  em: EntityManager,
  locks: LedgerLocks,
  work: (tx: EntityManager) => Promise<T>,
): Promise<T> {
  const lockAndWork = async (tx: EntityManager) => {
    const reserves = locks.reserves ?? [];
    if (reserves.length > 0) await tx.execute(lockedRows('ledger_transfer', placeholders(reserves)), reserves);
    await tx.execute(lockedRows('ledger_account', placeholders(locks.accounts)), locks.accounts);
    return work(tx);
  };
  if (em.isInTransaction()) return lockAndWork(em);
  return retriedTransaction(em, lockAndWork, MAX_ATTEMPTS);
}

/**
 * Several transfers that stand or fall together, their accounts locked up front (see
 * withLedgerLocks): retried whole on a transient failure in their own transaction, and a repeat
 * replays them, since each keeps its own idempotency key.
 */
export async function transferAll(em: EntityManager, inputs: TransferInput[]): Promise<LedgerTransfer[]> {
  if (inputs.length === 0) return [];
  const accounts = [...new Set(inputs.flatMap((input) => [input.debit, input.credit]))];
  return withLedgerLocks(em, { accounts }, async (tx) => {
    const done: LedgerTransfer[] = [];
    for (const input of inputs) done.push(await transfer(tx, input));
    return done;
  });
}

/** Holds `amount` (a pending transfer): it counts against the debit side's available balance until posted or voided. */
export async function reserve(em: EntityManager, input: TransferInput): Promise<LedgerTransfer> {
  return move(em, RESERVE_SQL, 'reserve', input);
}

async function explainRefusedSettle(em: EntityManager, pendingId: string, amount: bigint): Promise<never> {
  const pending = await getTransfer(em, pendingId);
  if (!pending || pending.type !== 'reserve') throw pendingTransferNotFound();
  if (pending.state !== 'pending') throw pendingTransferClosed();
  if (amount > pending.amount) throw amountExceedsReserve();
  throw new Error('Reserve could not be settled');
}

/** `sameAlso`, when given, must also hold for a replay to be one (a post made without a fee stays without). */
async function settle(em: EntityManager, type: 'post' | 'void', input: SettleInput, amount: bigint, sameAlso?: () => Promise<boolean>) {
  checkKey(input.idempotencyKey);
  if (!isUuid(input.pendingId)) throw pendingTransferNotFound();
  const posted = amount.toString();
  const params = [
    input.pendingId, posted,
    posted,
    posted,
    randomUUID(), input.idempotencyKey, ...(type === 'post' ? [posted] : []), input.pendingId,
    input.kind ?? null, input.reference ?? null, json(input.metadata),
  ];
  const same: Same = (t) => t.type === type && t.pendingId === input.pendingId && (type === 'void' || t.amount === amount);
  return run(em, type === 'post' ? POST_SQL : VOID_SQL, params, input.idempotencyKey, same, () => explainRefusedSettle(em, input.pendingId, amount), sameAlso);
}

/** Posts `amount` (0 <= amount <= reserved) of a reserve; the rest of the hold is released. */
export async function postPending(em: EntityManager, input: SettleInput & { amount: bigint }): Promise<LedgerTransfer> {
  if (typeof input.amount !== 'bigint' || input.amount < 0n) throw badRequest('invalid_amount', 'Amount must not be negative');
  return settle(em, 'post', input, input.amount);
}

/** Releases a reserve entirely; nothing is posted. */
export async function voidPending(em: EntityManager, input: SettleInput): Promise<LedgerTransfer> {
  return settle(em, 'void', input, 0n);
}

/**
 * Linked reserve: holds `amount` on the preferred account (prepaid credits with a publisher) when
 * its available balance covers it, else on the fallback (the wallet) when the preferred has nothing
 * available, in one statement. Accounts that do not exist yet are skipped. 402
 * insufficient_balance when neither is picked: a preferred account holding part of the amount is
 * then spent with reserveSplit, so no remainder is left behind.
 */
const RESERVE_FIRST_SQL = `
with ${lockAccounts('?, ?, ?')}, pick as (
  select id from ledger_account
  where id in (?, ?) and (not no_overdraft or credits_posted - debits_posted - debits_pending >= ?::bigint)
  and (id = ? or not exists (select 1 from ledger_account p where p.id = ? and p.credits_posted - p.debits_posted - p.debits_pending > 0))
  order by (id = ?) desc limit 1
), d as (
  update ledger_account a set debits_pending = a.debits_pending + ?::bigint
  from pick where a.id = pick.id and (not a.no_overdraft or a.credits_posted - a.debits_posted - a.debits_pending >= ?::bigint) and ${AFTER_LOCKS}
  returning a.id
), c as (
  update ledger_account set credits_pending = credits_pending + ?::bigint
  where id = ? and exists (select 1 from d)
  returning 1
)
insert into ledger_transfer (id, idempotency_key, type, state, debit_account_id, credit_account_id, amount, kind, reference, metadata)
select ?, ?, 'reserve', 'pending', d.id, ?, ?::bigint, ?, ?, ?::jsonb from d left join c on true
returning ${TRANSFER_COLUMNS}`;

type Alone = () => Promise<LedgerTransfer>;

/**
 * Outside a transaction a paid-path statement is group-committed with the others of its kind
 * (see batchers.ts), `alone` being its single-item path; inside one it runs alone on it.
 */
async function groupCommitted(em: EntityManager, alone: Alone, submit: (batchers: LedgerBatchers, alone: Alone) => Promise<LedgerTransfer>) {
  if (em.isInTransaction()) return alone();
  return submit(await ledgerBatchers(em), alone);
}

type ReserveFirstInput = Omit<TransferInput, 'debit'> & { debits: [preferred: string, fallback: string] };

/** Outside a transaction, holds racing each other are group-committed. */
export async function reserveFromFirst(em: EntityManager, input: ReserveFirstInput): Promise<LedgerTransfer> {
  const [preferred, fallback] = input.debits;
  checkMove({ ...input, debit: preferred });
  if (fallback === input.credit) throw badRequest('same_account', 'A transfer needs two different accounts');
  return groupCommitted(em, () => reserveFromFirstAlone(em, input), (batchers, alone) =>
    batchers.reserves.submit(
      {
        id: randomUUID(), idempotencyKey: input.idempotencyKey, preferred, fallback, credit: input.credit, amount: input.amount,
        kind: input.kind, reference: input.reference ?? null, metadata: json(input.metadata),
      },
      alone,
    ),
  );
}

async function reserveFromFirstAlone(em: EntityManager, input: ReserveFirstInput): Promise<LedgerTransfer> {
  const [preferred, fallback] = input.debits;
  const amount = input.amount.toString();
  const params = (first: string, second: string) => [
    first, second, input.credit,
    first, second, amount, first, first, first,
    amount, amount,
    amount, input.credit,
    randomUUID(), input.idempotencyKey, input.credit, amount, input.kind, input.reference ?? null, json(input.metadata),
  ];
  const same: Same = (t) => t.type === 'reserve' && input.debits.includes(t.debitAccountId) && t.creditAccountId === input.credit && t.amount === input.amount;
  const refused = Symbol('refused');
  try {
    return await run(em, RESERVE_FIRST_SQL, params(preferred, fallback), input.idempotencyKey, same, () => Promise.reject(refused));
  } catch (error) {
    if (error !== refused) throw error;
  }
  // A preferred account with part of the amount is spent with reserveSplit, not passed over.
  if ((await getAccountBalance(em, preferred)).available > 0n) throw new PartlyCovered();
  // The preferred account was drained between the pick and the lock: the fallback alone, once more.
  return run(em, RESERVE_FIRST_SQL, params(fallback, fallback), input.idempotencyKey, same, () =>
    explainRefusedMove(em, { ...input, debit: fallback }),
  );
}

/**
 * Linked post: posts `amount` of a reserve to its credit account and, in the same statement, moves
 * `fee` of it on to `feeAccount` as its own transfer (a publisher's payable earns the price, the
 * platform's revenue the fee). Either both transfers exist or neither.
 */
const POST_WITH_FEE_SQL = `
with ${CLOSE_RESERVE('posted', true)}, c as (
  update ledger_account a set credits_pending = a.credits_pending - r.reserved,
    credits_posted = a.credits_posted + ?::bigint, debits_posted = a.debits_posted + ?::bigint
  from r where a.id = r.credit_account_id and ${AFTER_LOCKS}
  returning a.credits_posted - a.debits_posted as balance
), f as (
  update ledger_account set credits_posted = credits_posted + ?::bigint
  where id = ? and exists (select 1 from c)
  returning credits_posted - debits_posted as balance
), fee as (
  insert into ledger_transfer (id, idempotency_key, type, state, debit_account_id, credit_account_id, amount, kind, reference, debit_balance_after, credit_balance_after)
  select ?, ?, 'transfer', 'posted', r.credit_account_id, ?, ?::bigint, 'gateway_fee', r.reference, c.balance, f.balance
  from r, c left join f on true
  returning id
)
insert into ledger_transfer (id, idempotency_key, type, state, debit_account_id, credit_account_id, amount, pending_id, kind, reference, metadata, debit_balance_after, credit_balance_after)
select ?, ?, 'post', 'posted', r.debit_account_id, r.credit_account_id, ?::bigint, ?, coalesce(?, r.kind), coalesce(?, r.reference), ?::jsonb, d.balance, c.balance + ?::bigint
from r, d, c, fee
returning ${TRANSFER_COLUMNS}`;

type PostWithFeeInput = SettleInput & { amount: bigint; fee: bigint; feeAccount: string; feeIdempotencyKey: string };

/** Outside a transaction, posts racing each other are group-committed. */
export async function postPendingWithFee(em: EntityManager, input: PostWithFeeInput): Promise<LedgerTransfer> {
  if (typeof input.amount !== 'bigint' || input.amount < 0n) throw badRequest('invalid_amount', 'Amount must not be negative');
  if (input.fee < 0n) throw badRequest('invalid_amount', 'A fee cannot be negative');
  // Without a fee, a replay of a post that moved one is a conflict too.
  if (input.fee === 0n) return settle(em, 'post', input, input.amount, async () => (await findTransfer(em, input.feeIdempotencyKey)) === null);
  if (input.fee > input.amount) throw badRequest('invalid_amount', 'The fee cannot exceed the posted amount');
  checkKey(input.idempotencyKey);
  checkKey(input.feeIdempotencyKey);
  if (!isUuid(input.pendingId)) throw pendingTransferNotFound();
  return groupCommitted(em, () => postWithFeeAlone(em, input), (batchers, alone) =>
    batchers.posts.submit(
      {
        pendingId: input.pendingId, amount: input.amount, fee: input.fee, feeAccount: input.feeAccount,
        feeId: randomUUID(), feeIdempotencyKey: input.feeIdempotencyKey, postId: randomUUID(), idempotencyKey: input.idempotencyKey,
        kind: input.kind ?? null, reference: input.reference ?? null, metadata: json(input.metadata),
      },
      alone,
    ),
  );
}

async function postWithFeeAlone(em: EntityManager, input: PostWithFeeInput): Promise<LedgerTransfer> {
  const amount = input.amount.toString();
  const fee = input.fee.toString();
  const params = [
    input.pendingId, amount, input.feeAccount,
    amount,
    amount, fee,
    fee, input.feeAccount,
    randomUUID(), input.feeIdempotencyKey, input.feeAccount, fee,
    randomUUID(), input.idempotencyKey, amount, input.pendingId, input.kind ?? null, input.reference ?? null, json(input.metadata), fee,
  ];
  const same: Same = (t) => t.type === 'post' && t.pendingId === input.pendingId && t.amount === input.amount;
  // A replay is the same post and the same fee: a post made without this fee (or with another) is a conflict.
  const sameFee = async () => {
    const fee = await findTransfer(em, input.feeIdempotencyKey);
    return fee !== null && fee.amount === input.fee && fee.creditAccountId === input.feeAccount;
  };
  return run(em, POST_WITH_FEE_SQL, params, input.idempotencyKey, same, () => explainRefusedSettle(em, input.pendingId, input.amount), sameFee);
}
