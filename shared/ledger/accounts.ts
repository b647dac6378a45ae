import { randomInt } from 'node:crypto';
import { sha256Hex } from '../crypto.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ledgerPool, runPooledStatement } from './statements.js';

/** Wallet-like accounts (money a user holds) refuse overdraft; system accounts may go negative. */
export type UserAccountKind = 'user_wallet' | 'prepaid';
export type SystemAccountKind =
  | 'card_clearing'
  | 'onchain_clearing'
  | 'promotions'
  /** Test money handed out outside production (`grantDevelopmentCredits`): never mixed with real promotions. */
  | 'development_grants'
  | 'platform_revenue'
  | 'publisher_payable';
export type LedgerAccountKind = UserAccountKind | SystemAccountKind;

/**
 * System accounts are touched by every paid call: each is split into shards (one picked at random
 * per transfer) so concurrent calls do not queue behind one row lock. Its balance is the sum of its shards.
 */
export const SYSTEM_ACCOUNT_SHARDS = 16;

interface AccountKey {
  kind: LedgerAccountKind;
  ownerId?: string | null;
  publisherId?: string | null;
  shard?: number;
}

const MAX_REMEMBERED = 200_000;
const derivedIds = new Map<string, string>();

/** The id is derived from what the account is, so finding an account never needs a lookup. */
export function ledgerAccountId(key: AccountKey): string {
  const name = `ledger-account:${key.kind}:${key.ownerId ?? ''}:${key.publisherId ?? ''}:${key.shard ?? 0}`;
  let id = derivedIds.get(name);
  if (id === undefined) {
    const hex = sha256Hex(name);
    id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    if (derivedIds.size >= MAX_REMEMBERED) derivedIds.clear();
    derivedIds.set(name, id);
  }
  return id;
}

/** Accounts known to exist, per database (keyed by the ORM configuration); rows are never deleted. */
const ensured = new WeakMap<object, Set<string>>();

const INSERT_ACCOUNT_SQL = `insert into ledger_account (id, kind, owner_id, publisher_id, shard, no_overdraft) values (?, ?, ?, ?, ?, ?) on conflict (id) do nothing`;

/**
 * Creates the account row if missing, and remembers it once committed. Outside a transaction it
 * runs on the pool. Inside the caller's transaction it runs on that transaction's connection and
 * is not remembered (a rollback removes the row): waiting there for a second connection while
 * holding one is how a pool runs dry, every holder waiting for another.
 */
async function ensureAccount(em: EntityManager, key: AccountKey, noOverdraft: boolean): Promise<string> {
  const id = ledgerAccountId(key);
  let known = ensured.get(em.config);
  if (!known) ensured.set(em.config, (known = new Set()));
  if (known.has(id)) return id;
  const values = [id, key.kind, key.ownerId ?? null, key.publisherId ?? null, key.shard ?? 0, noOverdraft];
  if (em.isInTransaction()) {
    await em.execute(INSERT_ACCOUNT_SQL, values);
    return id;
  }
  await runPooledStatement(await ledgerPool(em), INSERT_ACCOUNT_SQL, values);
  if (known.size >= MAX_REMEMBERED) known.clear();
  known.add(id);
  return id;
}

/** The user's spendable wallet (never below zero). */
export function ensureWalletAccount(em: EntityManager, userId: string): Promise<string> {
  return ensureAccount(em, { kind: 'user_wallet', ownerId: userId }, true);
}

/** Credits a caller holds for one publisher (on-chain deposits); spent first for that publisher. */
export function ensurePrepaidAccount(em: EntityManager, userId: string, publisherId: string): Promise<string> {
  return ensureAccount(em, { kind: 'prepaid', ownerId: userId, publisherId }, true);
}

export interface SystemAccountChoice {
  /** Only (and always) for publisher payables. */
  publisherId?: string;
  /**
   * Pass the transfer's idempotency key: the shard is then derived from it, so a replay names the
   * same account and is recognised as the same transfer. Without it the shard is random.
   */
  shardKey?: string;
}

/** The shard a transfer key picks (random without one). Stable: a replay must name the same account. */
export function shardOf(shardKey: string | undefined): number {
  if (shardKey === undefined) return randomInt(SYSTEM_ACCOUNT_SHARDS);
  return parseInt(sha256Hex(shardKey).slice(0, 8), 16) % SYSTEM_ACCOUNT_SHARDS;
}

/** One shard of a system account. */
export function pickSystemAccount(em: EntityManager, kind: SystemAccountKind, choice: SystemAccountChoice = {}): Promise<string> {
  if ((kind === 'publisher_payable') !== Boolean(choice.publisherId)) {
    throw new Error(`publisher_payable needs a publisher id, and only it does (${kind})`);
  }
  return ensureAccount(em, { kind, publisherId: choice.publisherId, shard: shardOf(choice.shardKey) }, false);
}

export const walletAccountId = (userId: string) => ledgerAccountId({ kind: 'user_wallet', ownerId: userId });
export const prepaidAccountId = (userId: string, publisherId: string) =>
  ledgerAccountId({ kind: 'prepaid', ownerId: userId, publisherId });
