import type { EntityManager } from '@mikro-orm/postgresql';
import { nodeErrorOf, type ChainChecker, type ChainFinding, type CheckedBlock } from './chain-check.js';
import type { PaymentKey } from './payments.js';
import { resolveUnknownPayment, staleVerifiedWhere, type Bookkeeper } from './reconcile.js';

const CHAIN_SWEEP_BATCH = 100;
/**
 * A payment a person must look at (a nonce used without a transfer to us, or found paid with
 * nothing kept to book) is asked about again hourly during its first day: a hosted node whose log
 * index lags its state shows a used nonce without its use, and heals within that. After that the
 * answer stands, and only an operator's `check` asks again; except for a payment whose validBefore
 * was not recorded, which can still be executed and is asked about hourly for as long as it waits.
 */
const UNCLEAR_RECHECK = `interval '1 hour'`;
const UNCLEAR_RECHECKED_FOR = `interval '1 day'`;
/** A claim a crashed process leaves runs out after this; a sweep takes no new payment after half of it. */
const CLAIM_MINUTES = 20;
/**
 * A payment just asked about is left alone this long, by every replica: just under the sweeps'
 * minute, so each payment is asked about about once a minute however many replicas sweep.
 */
const RECHECK_AFTER_SECONDS = 50;

export interface ChainSweepOptions {
  /** Asked between payments: true ends the sweep, and hands back what it did not reach. */
  stopping?: () => boolean;
  /** How long no sweep asks again about a payment this one asked about (0: the next may at once). */
  recheckAfterSeconds?: number;
  /** Also takes the payments another process has claimed or just asked about, and those left to a person (an operator's `check`, which must not come back empty-handed). */
  takeClaimed?: boolean;
}

export interface ChainSweepOutcome {
  /** Found paid on-chain, and booked (or left to the booking sweep). */
  paid: number;
  /** Found never executed after their authorization expired: failed, nothing booked. */
  failed: number;
  /** Not executed yet, but still able to: asked again next time. */
  waiting: number;
  /** A person must look (`npm run x402:payments`): the nonce is used but no transfer to us shows it, or the payment is too old to fail safely. */
  unclear: number;
  /** Resolved by another process (a sweep, an operator) while this one asked the node: counted there, not here. */
  resolvedElsewhere: number;
  /** The node did not answer (the rest of the network's payments wait for the next sweep), or resolving failed. */
  errors: number;
}

/** What a check found out, as noted on the payment. */
type Verdict = 'paid' | 'failed' | 'waiting' | 'unclear';

interface UnknownRow {
  network: string;
  payer: string;
  nonce: string;
  pay_to: string;
  amount: string;
  /** Seconds since the epoch. */
  created_at: number;
  /** Seconds since the epoch (Infinity for an authorization valid for ever), null if not recorded. */
  valid_before: number | null;
  chain_finding: Verdict | null;
}

/**
 * Asks the chain about payments the facilitator left unanswered (`settle_unknown`), and those a
 * crash left `verified`, on the checker's network, and resolves what it can: a payment found
 * paid on-chain is booked with its transaction; one whose authorization expired unused, by the
 * chain's own clock, is failed. The least recently asked go first, so a few that stay unresolved
 * never starve the rest; a node that fails ends the network's sweep (it would fail the rest too).
 * The payments are claimed first, and each one asked about stays claimed a little longer, so that
 * replicas ask about each payment about once a minute in all; those a sweep does not reach are
 * handed back.
 */
export async function resolveUnknownPaymentsOnChain(
  em: EntityManager,
  checker: ChainChecker,
  bookkeeper: Bookkeeper,
  options: ChainSweepOptions = {},
): Promise<ChainSweepOutcome> {
  const outcome: ChainSweepOutcome = { paid: 0, failed: 0, waiting: 0, unclear: 0, resolvedElsewhere: 0, errors: 0 };
  const rows = await claimDuePayments(em, checker.network.caip2, bookkeeper, options);
  if (rows.length === 0) return outcome;
  // A sweep never outlives its claims by much: one slow payment (48 log ranges) can take minutes.
  const takesNoMoreAfter = Date.now() + (CLAIM_MINUTES / 2) * 60_000;
  const sweep: Sweep = {
    em,
    checker,
    bookkeeper,
    outcome,
    stopping: () => (options.stopping?.() ?? false) || Date.now() > takesNoMoreAfter,
    log: bookkeeper.log.child({ network: checker.network.caip2 }),
  };
  const noted = new Set<UnknownRow>();
  try {
    await checkEach(sweep, rows, noted);
  } finally {
    const unnoted = rows.filter((row) => !noted.has(row));
    await releaseClaims(em, unnoted).catch((error) => sweep.log.error({ err: error }, 'x402 chain check: releasing claims failed; those payments wait for their claim to run out'));
  }
  return outcome;
}

interface Sweep {
  em: EntityManager;
  checker: ChainChecker;
  bookkeeper: Bookkeeper;
  outcome: ChainSweepOutcome;
  stopping: () => boolean;
  log: Bookkeeper['log'];
}

/** Checks the claimed payments in order, adding each one noted (asked about, or failing at the node) to `noted`. */
async function checkEach({ em, checker, bookkeeper, outcome, stopping, log }: Sweep, rows: UnknownRow[], noted: Set<UnknownRow>): Promise<void> {
  let at: CheckedBlock;
  try {
    at = await checker.checkedBlock();
  } catch (error) {
    log.warn({ node: nodeErrorOf(error) }, 'x402 chain check: the node did not answer');
    outcome.errors += 1;
    return;
  }
  for (const row of rows) {
    if (stopping()) break;
    const key: PaymentKey = { network: row.network, payer: row.payer, nonce: row.nonce };
    let finding: ChainFinding;
    try {
      finding = await checker.find({ payer: row.payer, nonce: row.nonce, payTo: row.pay_to, amount: BigInt(row.amount), acceptedAt: new Date(row.created_at * 1000) }, at);
    } catch (error) {
      // Asked last next time, so that one payment the node chokes on cannot block the rest.
      await noteChecked(em, key, row.chain_finding);
      noted.add(row);
      log.warn({ node: nodeErrorOf(error), ...key }, 'x402 chain check: the node did not answer; the rest waits for the next sweep');
      outcome.errors += 1;
      break;
    }
    try {
      const verdict = await resolveFinding(em, key, row, finding, bookkeeper);
      if (verdict === 'resolvedElsewhere') {
        // Its resolver noted what it found; this sweep's claim is handed back with those not reached.
        outcome.resolvedElsewhere += 1;
        continue;
      }
      await noteChecked(em, key, verdict);
      noted.add(row);
      if (verdict === 'unclear' && row.chain_finding !== 'unclear') log.warn({ ...key, finding: finding.state }, 'x402 chain check: a person must resolve this payment (npm run x402:payments)');
      outcome[verdict] += 1;
    } catch (error) {
      // Asked last next time too: a payment that cannot be resolved (an unreadable plan) must not head every sweep.
      await noteChecked(em, key, row.chain_finding);
      noted.add(row);
      log.error({ err: error, ...key }, 'x402 chain check: resolving a payment failed');
      outcome.errors += 1;
    }
  }
}

/**
 * Claims the network's payments due for a check, least recently asked first, so that replicas
 * sweeping at once never ask about the same payment, and none asks again about one just asked
 * about. A claim ends when the payment is noted or handed back; one a crashed process left runs
 * out after CLAIM_MINUTES.
 */
async function claimDuePayments(em: EntityManager, network: string, bookkeeper: Bookkeeper, options: ChainSweepOptions): Promise<UnknownRow[]> {
  const recheckAfter = Math.ceil(options.recheckAfterSeconds ?? RECHECK_AFTER_SECONDS);
  const due = options.takeClaimed
    ? ''
    : `and (chain_claimed_until is null or chain_claimed_until < now())
       and (chain_checked_at is null or chain_checked_at <= now() - make_interval(secs => ${recheckAfter}))
       and (chain_finding is distinct from 'unclear'
         or (chain_checked_at < now() - ${UNCLEAR_RECHECK} and (valid_before is null or created_at > now() - ${UNCLEAR_RECHECKED_FOR})))`;
  const rows = (await em.execute(
    `with due as (
       select network, payer, nonce from x402_payment
       where (status = 'settle_unknown' or ${staleVerifiedWhere(bookkeeper.config)}) and network = ?
       ${due}
       order by chain_checked_at nulls first, created_at limit ${CHAIN_SWEEP_BATCH}
       for update skip locked)
     update x402_payment p set chain_claimed_until = now() + make_interval(mins => ${CLAIM_MINUTES})
     from due where p.network = due.network and p.payer = due.payer and p.nonce = due.nonce
     returning p.network, p.payer, p.nonce, p.pay_to, p.amount::text as amount, extract(epoch from p.created_at)::float8 as created_at,
       extract(epoch from p.valid_before)::float8 as valid_before, p.chain_finding, extract(epoch from p.chain_checked_at)::float8 as chain_checked_at`,
    [network],
  )) as (UnknownRow & { chain_checked_at: number | null })[];
  // UPDATE … RETURNING keeps no order.
  const lastAsked = (row: { chain_checked_at: number | null }) => row.chain_checked_at ?? -Infinity;
  return rows.sort((a, b) => lastAsked(a) - lastAsked(b) || a.created_at - b.created_at);
}

/** Hands back claimed payments this sweep did not reach, for the next sweep (of any replica). */
async function releaseClaims(em: EntityManager, rows: UnknownRow[]): Promise<void> {
  if (rows.length === 0) return;
  await em.execute(
    `update x402_payment p set chain_claimed_until = null
     from jsonb_to_recordset(?::jsonb) as r(network text, payer text, nonce text)
     where p.network = r.network and p.payer = r.payer and p.nonce = r.nonce`,
    [JSON.stringify(rows.map(({ network, payer, nonce }) => ({ network, payer, nonce })))],
  );
}

async function noteChecked(em: EntityManager, key: PaymentKey, verdict: Verdict | null): Promise<void> {
  await em.execute(`update x402_payment set chain_checked_at = now(), chain_finding = ?, chain_claimed_until = null where network = ? and payer = ? and nonce = ?`, [
    verdict,
    key.network,
    key.payer,
    key.nonce,
  ]);
}

/** A payment no longer unresolved when this sweep came to resolve it was resolved by another process after the claim. */
async function resolveFinding(
  em: EntityManager,
  key: PaymentKey,
  row: UnknownRow,
  finding: ChainFinding,
  bookkeeper: Bookkeeper,
): Promise<Verdict | 'resolvedElsewhere'> {
  if (finding.state === 'paid') {
    const resolution = await resolveUnknownPayment(em, key, { settled: true, transaction: finding.transaction }, bookkeeper);
    if (resolution === 'booked' || resolution === 'booking_pending') return 'paid';
    if (resolution === 'not_found') return 'resolvedElsewhere';
    // Recorded before plans were kept: what to book is not known.
    return resolution === 'no_plan' ? 'unclear' : 'waiting';
  }
  if (finding.state === 'unclear') return 'unclear';
  // Recorded before validBefore was kept: it may still be executable, so it is never failed unseen.
  if (row.valid_before === null) return 'unclear';
  // Expired by the chain's clock, not only ours: a node that lags cannot make a payment fail.
  if (finding.asOf.getTime() <= row.valid_before * 1000) return 'waiting';
  const resolution = await resolveUnknownPayment(em, key, { settled: false }, bookkeeper);
  return resolution === 'failed' ? 'failed' : resolution === 'not_found' ? 'resolvedElsewhere' : 'waiting';
}
