import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { randomUppercaseCode } from '../../../shared/crypto.js';
import { badRequest, conflict, notFound } from '../../../shared/errors.js';
import { sumCredits, walletAccountId } from '../../../shared/ledger/index.js';
import { formatMoney } from '../../../shared/money.js';
import { Referral } from '../entities/referral.js';
import { ReferralCode } from '../entities/referral-code.js';
import type { ReferralApplied, ReferralSummary } from '../types/results.js';
import { creditAllFromPromotions } from './credits.js';

const CODE_LENGTH = 8;
const CODE_FORMAT = /^[A-Z0-9]{4,32}$/;

/** The caller's code, created on first use (a clash with another code retries with a new one). */
async function ensureReferralCode(em: EntityManager, userId: string): Promise<string> {
  for (;;) {
    const [row] = await em.execute(
      `insert into wallet_referral_code (user_id, code, created_at) values (?, ?, now())
       on conflict do nothing returning code`,
      [userId, randomUppercaseCode(CODE_LENGTH)],
    );
    if (row) return row.code;
    const existing = await em.findOne(ReferralCode, { userId });
    if (existing) return existing.code;
  }
}

export async function readReferral(context: RequestContext): Promise<ReferralSummary> {
  const { userId } = requireIdentity(context);
  const [code, joined, earned] = await Promise.all([
    ensureReferralCode(context.em, userId),
    context.em.count(Referral, { referrerUserId: userId }),
    sumCredits(context.em, walletAccountId(userId), 'referral'),
  ]);
  return { code, joined, earned: formatMoney(earned), bonus: formatMoney(context.services.config.wallet.referralBonus) };
}

/** Serialises work on one referrer's referrals (its rewards counted against the cap) until the transaction ends. */
const lockReferrer = (em: EntityManager, referrerUserId: string) =>
  em.execute(`select pg_advisory_xact_lock(hashtext('wallet_referral:' || ?))`, [referrerUserId]);

/**
 * Applying a code and rewarding on verification take turns per referred account: the verification's
 * reward (an outbox delivery, after the verification committed) waits for an apply still in flight,
 * and so sees its referral; an apply sees a verification committed before it asks. Without this, an
 * apply that asked accounts before a verification committed, and committed after the reward ran,
 * would be paid by neither (accounts' answer shares no transaction with us in split mode).
 */
async function takeReferralTurn(em: EntityManager, referredUserId: string): Promise<void> {
  await em.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`wallet-referral:${referredUserId}`]);
}

/**
 * Pays both sides once, when the referred account has a verified e-mail, and only for the
 * referrer's first `maxReferralRewards` paid referrals (one person with many mailboxes farms no
 * more). Marking the referral as rewarded and the two idempotent credits happen in the caller's
 * transaction; the credits lock their four accounts up front (transferAll), so they cannot
 * deadlock with a concurrent transfer.
 */
export async function rewardReferral(
  em: EntityManager,
  referredUserId: string,
  terms: { referralBonus: bigint; maxReferralRewards: number },
): Promise<boolean> {
  await takeReferralTurn(em, referredUserId);
  const referral = await em.findOne(Referral, { referredUserId, rewardedAt: null });
  if (!referral) return false;
  await lockReferrer(em, referral.referrerUserId);
  const [row] = await em.execute(
    `update wallet_referral set rewarded_at = now()
      where referred_user_id = ? and rewarded_at is null
        and (select count(*) from wallet_referral where referrer_user_id = ? and rewarded_at is not null) < ?
      returning referrer_user_id`,
    [referredUserId, referral.referrerUserId, terms.maxReferralRewards],
  );
  if (!row) return false;
  const reference = `referral:${referredUserId}`;
  const bonus = terms.referralBonus;
  await creditAllFromPromotions(em, [
    { userId: row.referrer_user_id, amount: bonus, kind: 'referral', idempotencyKey: `${reference}:referrer`, reference },
    { userId: referredUserId, amount: bonus, kind: 'referral', idempotencyKey: `${reference}:referred`, reference },
  ]);
  return true;
}

/** True when `userId` referred `referrerUserId`, directly or through others: applying the code would close a ring. */
async function closesRing(em: EntityManager, userId: string, referrerUserId: string): Promise<boolean> {
  const [row] = await em.execute(
    `with recursive chain(user_id, depth) as (
       select referrer_user_id, 1 from wallet_referral where referred_user_id = ?
       union
       select r.referrer_user_id, c.depth + 1 from wallet_referral r join chain c on r.referred_user_id = c.user_id where c.depth < 10000
     ) select 1 as found from chain where user_id = ? limit 1`,
    [referrerUserId, userId],
  );
  return Boolean(row);
}

/**
 * Read now, not from the request's identity: a verification committed since (whose reward found
 * no referral yet) would otherwise leave the referral unpaid for good. A verification still in
 * flight holds the user's row, and this waits for it.
 */
async function verifiedNow(context: RequestContext, em: EntityManager, identity: { userId: string; emailVerified: boolean }): Promise<boolean> {
  const read = context.services.ports.emailVerified;
  return read ? read(em, identity.userId) : identity.emailVerified;
}

/** Once per account, never one's own code nor that of an account one referred (a ring); unknown codes are 404. */
export async function applyReferralCode(context: RequestContext, rawCode: string): Promise<ReferralApplied> {
  const identity = requireIdentity(context);
  const code = typeof rawCode === 'string' ? rawCode.trim().toUpperCase() : '';
  if (!CODE_FORMAT.test(code)) throw notFound('Referral code');
  const owner = await context.em.findOne(ReferralCode, { code });
  if (!owner) throw notFound('Referral code');
  if (owner.userId === identity.userId) throw badRequest('own_referral_code', 'You cannot apply your own referral code');
  const terms = context.services.config.wallet;
  const rewarded = await context.em.transactional(async (em) => {
    // One referral applied at a time, everywhere: two accounts applying each other's codes at
    // once must not both pass the ring check.
    await em.execute(`select pg_advisory_xact_lock(hashtext('wallet_referral'))`);
    await takeReferralTurn(em as EntityManager, identity.userId);
    if (await closesRing(em as EntityManager, identity.userId, owner.userId)) {
      throw badRequest('referral_ring', 'This code belongs to an account you referred (directly or through others): a referral ring is not paid');
    }
    const [inserted] = await em.execute(
      `insert into wallet_referral (referred_user_id, referrer_user_id, created_at) values (?, ?, now())
       on conflict do nothing returning referred_user_id`,
      [identity.userId, owner.userId],
    );
    if (!inserted) throw conflict('referral_already_applied', 'A referral code was already applied to this account');
    return (await verifiedNow(context, em as EntityManager, identity)) ? rewardReferral(em as EntityManager, identity.userId, terms) : false;
  });
  return { applied: true, rewarded, bonus: formatMoney(terms.referralBonus) };
}
