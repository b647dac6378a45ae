import { describe, expect, it } from '@jest/globals';
import { ledgerAccountId, prepaidAccountId, shardOf, walletAccountId } from '../../shared/ledger/accounts.js';

const USER = '00000000-0000-4000-8000-000000000001';
const PUBLISHER = '00000000-0000-4000-8000-000000000002';

/**
 * Account ids and shards are derived, never stored elsewhere: a change to the derivation would
 * orphan every existing account and turn replays into conflicts. These values were produced by
 * the first implementation and must never change.
 */
describe('derived ledger account ids', () => {
  it('are the same as they have always been', () => {
    expect(walletAccountId(USER)).toBe('769da795-6d63-868d-8608-b19694477ae4');
    expect(ledgerAccountId({ kind: 'publisher_payable', publisherId: PUBLISHER, shard: 7 })).toBe('91adc906-1ecc-83c7-9ccb-8bb768eabca4');
    expect(prepaidAccountId(USER, PUBLISHER)).toBe('4575794e-a507-8edc-b91b-755a03711480');
  });

  it('come back the same when asked again (memoised) and differ between accounts', () => {
    const ids = [walletAccountId(USER), walletAccountId(USER), walletAccountId(PUBLISHER)];
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it('pick the same shard for a transfer key as they always have', () => {
    expect([shardOf('call:abc'), shardOf('deposit:cs_test_1'), shardOf('x')]).toEqual([6, 2, 2]);
  });
});
