import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChainChecker, ChainFinding } from './chain-check.js';
import type { PaymentKey } from './payments.js';
import { resolveUnknownPayment, staleVerifiedWhere, type Bookkeeper } from './reconcile.js';

const CHAIN_SWEEP_BATCH = 100;

export interface ChainSweepOutcome {
  /** Found paid on-chain, and booked (or left to the booking sweep). */
  paid: number;
  /** Found never executed after their authorization expired: failed, nothing booked. */
  failed: number;
  /** Not executed yet, but still able to: asked again next time. */
  waiting: number;
  /** The nonce is used but no transfer to us shows it: a person must look (`npm run x402:payments`). */
  unclear: number;
  /** The node did not answer. */
  errors: number;
}

interface UnknownRow {
  network: string;
  payer: string;
  nonce: string;
  pay_to: string;
  amount: string;
  /** Seconds since the epoch (Infinity for an authorization valid for ever), null if not recorded. */
  valid_before: number | null;
}

/**
 * Asks the chain about payments the facilitator left unanswered (`settle_unknown`), and those a
 * crash left `verified`, on the configured network, and resolves what it can: a payment found
 * paid on-chain is booked with its transaction; one whose authorization expired unused, by the
 * chain's own clock, is failed. The least recently asked go first, so a few that stay unresolved never starve
 * the rest.
 */
export async function resolveUnknownPaymentsOnChain(em: EntityManager, checker: ChainChecker, bookkeeper: Bookkeeper): Promise<ChainSweepOutcome> {
  const rows = (await em.execute(
    `select network, payer, nonce, pay_to, amount::text as amount, extract(epoch from valid_before)::float8 as valid_before from x402_payment
     where (status = 'settle_unknown' or ${staleVerifiedWhere(bookkeeper.config)}) and network = ?
     order by chain_checked_at nulls first, created_at limit ${CHAIN_SWEEP_BATCH}`,
    [checker.network.caip2],
  )) as UnknownRow[];
  const outcome: ChainSweepOutcome = { paid: 0, failed: 0, waiting: 0, unclear: 0, errors: 0 };
  for (const row of rows) {
    const key: PaymentKey = { network: row.network, payer: row.payer, nonce: row.nonce };
    let finding: ChainFinding;
    try {
      finding = await checker.find({ payer: row.payer, nonce: row.nonce, payTo: row.pay_to, amount: BigInt(row.amount) });
    } catch (error) {
      outcome.errors += 1;
      bookkeeper.log.warn({ err: error, ...key }, 'x402 chain check: the node did not answer');
      continue;
    } finally {
      await em.execute(`update x402_payment set chain_checked_at = now() where network = ? and payer = ? and nonce = ?`, [key.network, key.payer, key.nonce]);
    }
    outcome[await resolveFinding(em, key, row, finding, bookkeeper)] += 1;
  }
  return outcome;
}

async function resolveFinding(
  em: EntityManager,
  key: PaymentKey,
  row: UnknownRow,
  finding: ChainFinding,
  bookkeeper: Bookkeeper,
): Promise<keyof Omit<ChainSweepOutcome, 'errors'>> {
  if (finding.state === 'paid') {
    const resolution = await resolveUnknownPayment(em, key, { settled: true, transaction: finding.transaction }, bookkeeper);
    if (resolution === 'booked' || resolution === 'booking_pending') return 'paid';
    if (resolution === 'no_plan') return unclear(key, bookkeeper, 'found paid on-chain, but recorded before plans were kept');
    return 'waiting';
  }
  if (finding.state === 'unused') {
    // Expired by the chain's clock, not only ours: a node that lags cannot make a payment fail.
    if (row.valid_before !== null && finding.asOf.getTime() <= row.valid_before * 1000) return 'waiting';
    return (await resolveUnknownPayment(em, key, { settled: false }, bookkeeper)) === 'failed' ? 'failed' : 'waiting';
  }
  return unclear(key, bookkeeper, 'its nonce is used, but no transfer to the payee shows it');
}

function unclear(key: PaymentKey, bookkeeper: Bookkeeper, why: string): 'unclear' {
  bookkeeper.log.warn({ ...key, why }, 'x402 chain check: a person must resolve this payment (npm run x402:payments)');
  return 'unclear';
}
