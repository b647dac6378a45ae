import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest, conflict } from '../errors.js';
import {
  amountExceedsReserve,
  idempotencyConflict,
  insufficientBalance,
  isRetryable,
  isUniqueViolation,
  pendingTransferClosed,
  pendingTransferNotFound,
} from './errors.js';
import { transferFromRow, type LedgerTransfer } from './transfer-record.js';

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

/**
 * One statement moves the money: the debit side is updated only if its no-overdraft rule holds
 * (`credits_posted - debits_posted - debits_pending >= amount`), the credit side only if the debit
 * happened, and the transfer row is inserted only if both did. A duplicate idempotency key makes
 * the whole statement fail, so nothing moves twice.
 */
const MOVE_SQL = (column: 'posted' | 'pending', type: 'transfer' | 'reserve', state: 'posted' | 'pending') => `
with d as (
  update ledger_account set debits_${column} = debits_${column} + ?::bigint
  where id = ? and (not no_overdraft or credits_posted - debits_posted - debits_pending >= ?::bigint)
  returning credits_posted - debits_posted as balance
), c as (
  update ledger_account set credits_${column} = credits_${column} + ?::bigint
  where id = ? and exists (select 1 from d)
  returning credits_posted - debits_posted as balance
)
insert into ledger_transfer (id, idempotency_key, type, state, debit_account_id, credit_account_id, amount, kind, reference, metadata, debit_balance_after, credit_balance_after)
select ?, ?, '${type}', '${state}', ?, ?, ?::bigint, ?, ?, ?::jsonb, ${column === 'posted' ? 'd.balance, c.balance' : 'null, null'} from d, c
returning *`;

const TRANSFER_SQL = MOVE_SQL('posted', 'transfer', 'posted');
const RESERVE_SQL = MOVE_SQL('pending', 'reserve', 'pending');

/** Settles a reserve: releases the whole hold and posts `amount` of it (0 for a void), in one statement. */
const SETTLE_SQL = (type: 'post' | 'void') => `
with r as (
  update ledger_transfer set state = '${type === 'post' ? 'posted' : 'voided'}'
  where id = ? and type = 'reserve' and state = 'pending' and amount >= ?::bigint
  returning debit_account_id, credit_account_id, amount as reserved, kind, reference
), d as (
  update ledger_account a set debits_pending = a.debits_pending - r.reserved, debits_posted = a.debits_posted + ?::bigint
  from r where a.id = r.debit_account_id
  returning a.credits_posted - a.debits_posted as balance
), c as (
  update ledger_account a set credits_pending = a.credits_pending - r.reserved, credits_posted = a.credits_posted + ?::bigint
  from r where a.id = r.credit_account_id
  returning a.credits_posted - a.debits_posted as balance
)
insert into ledger_transfer (id, idempotency_key, type, state, debit_account_id, credit_account_id, amount, pending_id, kind, reference, metadata, debit_balance_after, credit_balance_after)
select ?, ?, '${type}', '${type === 'post' ? 'posted' : 'voided'}', r.debit_account_id, r.credit_account_id,
  ${type === 'post' ? '?::bigint' : 'r.reserved'}, ?, coalesce(?, r.kind), coalesce(?, r.reference), ?::jsonb, d.balance, c.balance
from r, d, c
returning *`;

const POST_SQL = SETTLE_SQL('post');
const VOID_SQL = SETTLE_SQL('void');

function checkKey(key: string) {
  if (typeof key !== 'string' || key.length < 1 || key.length > 200) {
    throw badRequest('invalid_idempotency_key', 'An idempotency key must be 1 to 200 characters');
  }
}

function checkMove(input: TransferInput) {
  checkKey(input.idempotencyKey);
  if (typeof input.amount !== 'bigint' || input.amount <= 0n) throw badRequest('invalid_amount', 'Amount must be greater than zero');
  if (input.debit === input.credit) throw badRequest('same_account', 'A transfer needs two different accounts');
}

const json = (value: Record<string, unknown> | null | undefined) => (value ? JSON.stringify(value) : null);

export async function findTransfer(em: EntityManager, idempotencyKey: string): Promise<LedgerTransfer | null> {
  const [row] = await em.execute('select * from ledger_transfer where idempotency_key = ?', [idempotencyKey]);
  return row ? transferFromRow(row, true) : null;
}

export async function getTransfer(em: EntityManager, id: string): Promise<LedgerTransfer | null> {
  const [row] = await em.execute('select * from ledger_transfer where id = ?', [id]);
  return row ? transferFromRow(row) : null;
}

type Same = (existing: LedgerTransfer) => boolean;

function replayOf(existing: LedgerTransfer, same: Same): LedgerTransfer {
  if (!same(existing)) throw idempotencyConflict();
  return existing;
}

/**
 * Runs one money statement. Outside a transaction a deadlock is retried (the statement rolled
 * back whole); inside the caller's transaction the key is looked up first, since a failed
 * statement would abort that transaction.
 */
async function run(
  em: EntityManager,
  sql: string,
  params: unknown[],
  key: string,
  same: Same,
  explainEmpty: () => Promise<never>,
): Promise<LedgerTransfer> {
  const inTransaction = em.isInTransaction();
  if (inTransaction) {
    const existing = await findTransfer(em, key);
    if (existing) return replayOf(existing, same);
  }
  for (let attempt = 1; ; attempt++) {
    let rows: Record<string, any>[];
    try {
      rows = await em.execute(sql, params);
    } catch (error) {
      if (isUniqueViolation(error)) {
        if (inTransaction) throw conflict('idempotency_in_progress', 'The same idempotency key is being used concurrently');
        const existing = await findTransfer(em, key);
        if (existing) return replayOf(existing, same);
      }
      if (isRetryable(error) && !inTransaction && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
    if (rows[0]) return transferFromRow(rows[0]);
    const existing = await findTransfer(em, key);
    if (existing) return replayOf(existing, same);
    return explainEmpty();
  }
}

async function explainRefusedMove(em: EntityManager, input: TransferInput): Promise<never> {
  const rows = await em.execute('select id from ledger_account where id in (?, ?)', [input.debit, input.credit]);
  if (rows.length < 2) throw new Error('Ledger account missing: accounts come from ensure*/pickSystemAccount');
  throw insufficientBalance();
}

async function move(em: EntityManager, sql: string, type: 'transfer' | 'reserve', input: TransferInput) {
  checkMove(input);
  const amount = input.amount.toString();
  const params = [
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

async function settle(em: EntityManager, type: 'post' | 'void', input: SettleInput, amount: bigint) {
  checkKey(input.idempotencyKey);
  if (!/^[0-9a-f-]{36}$/i.test(input.pendingId)) throw pendingTransferNotFound();
  const posted = amount.toString();
  const params = [
    input.pendingId, posted,
    posted,
    posted,
    randomUUID(), input.idempotencyKey, ...(type === 'post' ? [posted] : []), input.pendingId,
    input.kind ?? null, input.reference ?? null, json(input.metadata),
  ];
  const same: Same = (t) => t.type === type && t.pendingId === input.pendingId && (type === 'void' || t.amount === amount);
  return run(em, type === 'post' ? POST_SQL : VOID_SQL, params, input.idempotencyKey, same, () =>
    explainRefusedSettle(em, input.pendingId, amount),
  );
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
