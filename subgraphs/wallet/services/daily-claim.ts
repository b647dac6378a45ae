import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity, requireVerifiedEmail } from '../../../shared/context.js';
import { conflict } from '../../../shared/errors.js';
import { findTransfer } from '../../../shared/ledger/index.js';
import { formatMoney } from '../../../shared/money.js';
import type { DailyClaimEligibility } from '../types/results.js';
import { creditFromPromotions, walletCreditOf } from './credits.js';

const utcDay = (at: Date) => at.toISOString().slice(0, 10);
const claimKey = (userId: string, day: string) => `daily-claim:${userId}:${day}`;

/** Midnight UTC `days` after the start of `at`'s day (0: the start of that day). */
function utcMidnight(at: Date, days: number): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + days));
}

/** Eligible when a claim would pay now: the address verified (as the claim requires) and today's not taken. */
export async function readDailyEligibility(context: RequestContext): Promise<DailyClaimEligibility> {
  const { userId, emailVerified } = requireIdentity(context);
  const now = new Date();
  const today = await findTransfer(context.em, claimKey(userId, utcDay(now)));
  return {
    eligible: emailVerified && !today,
    amount: formatMoney(context.services.config.wallet.dailyClaim),
    // An open claim opened at the start of today; a taken one opens again at the next midnight.
    nextClaimAt: utcMidnight(now, today ? 1 : 0),
    lastClaimedAt: today?.createdAt ?? null,
  };
}

/** Once per UTC day: the day is part of the idempotency key, so a second claim (even concurrent) pays nothing. */
export async function claimDaily(context: RequestContext) {
  const { userId } = requireVerifiedEmail(context);
  const day = utcDay(new Date());
  const paid = await creditFromPromotions(context.em, {
    userId,
    amount: context.services.config.wallet.dailyClaim,
    kind: 'claim',
    idempotencyKey: claimKey(userId, day),
    reference: `daily:${day}`,
  });
  if (paid.replayed) throw conflict('already_claimed_today', 'Today\'s claim was already made; the next opens at midnight UTC');
  return walletCreditOf(paid);
}
