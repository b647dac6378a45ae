import type { EntityManager } from '@mikro-orm/postgresql';
import { getSystemBalance, ledgerAccountId, SYSTEM_ACCOUNT_SHARDS } from '../../../shared/ledger/index.js';
import { formatMoney } from '../../../shared/money.js';
import type { PublisherEarnings } from '../types/results.js';

export interface Earnings {
  /** Posted to the publisher's payable (sum of its shards). */
  balance: bigint;
  /** Held by payouts in flight. */
  pendingPayouts: bigint;
  /** Net earnings younger than the hold period. */
  onHold: bigint;
  available: bigint;
}

/** Kinds that move a publisher's earnings in or out in the ordinary course (held while young). */
const EARNING_KINDS = ['charge', 'publisher_charge', 'gateway_fee', 'refund', 'publisher_refund'];

export const payableShardIds = (publisherId: string) =>
  Array.from({ length: SYSTEM_ACCOUNT_SHARDS }, (_, shard) => ledgerAccountId({ kind: 'publisher_payable', publisherId, shard }));

/**
 * What a publisher can withdraw: its payable balance, less payouts in flight, less what it earned
 * (net of fees and refunds) in the last `holdDays`, the refund window. Never below zero.
 */
export async function readEarnings(em: EntityManager, publisherId: string, holdDays: number): Promise<Earnings> {
  const balance = await getSystemBalance(em, 'publisher_payable', publisherId);
  let onHold = 0n;
  if (holdDays > 0) {
    const ids = `{${payableShardIds(publisherId).join(',')}}`;
    const [row] = await em.execute(
      `select coalesce(sum(case when credit_account_id = any(?::uuid[]) then amount else -amount end), 0)::text as recent
         from ledger_transfer
        where (credit_account_id = any(?::uuid[]) or debit_account_id = any(?::uuid[]))
          and created_at > now() - make_interval(days => ?) and type in ('transfer', 'post') and kind = any(?::text[])`,
      [ids, ids, ids, holdDays, `{${EARNING_KINDS.join(',')}}`],
    );
    onHold = BigInt(row.recent);
    if (onHold < 0n) onHold = 0n;
  }
  const free = balance.posted - balance.held - onHold;
  return { balance: balance.posted, pendingPayouts: balance.held, onHold, available: free > 0n ? free : 0n };
}

export const earningsView = (publisherId: string, earnings: Earnings): PublisherEarnings => ({
  publisherId,
  balance: formatMoney(earnings.balance),
  pendingPayouts: formatMoney(earnings.pendingPayouts),
  onHold: formatMoney(earnings.onHold),
  available: formatMoney(earnings.available),
});
