import type { EntityManager } from '@mikro-orm/postgresql';
import { persisted } from './persisted.js';
import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { formatMoney } from '../../../shared/money.js';
import { Allowance } from '../entities/allowance.js';
import type { AllowanceView } from '../types/results.js';
import { amountOf } from './charge-input.js';
import { idempotent } from './idempotency.js';
import { findBilledPublisher } from './publisher-access.js';

const MONTH_START = `(date_trunc('month', now() at time zone 'UTC') at time zone 'UTC')`;

/** The payer's active allowance for the publisher, locked until the transaction ends; null when none. */
export async function lockActiveAllowance(tx: EntityManager, payer: string, publisherId: string): Promise<{ id: string; monthly_limit_micros: string } | null> {
  const [row] = await tx.execute(
    `select id, monthly_limit_micros::text as monthly_limit_micros from billing_allowance
      where payer_user_id = ? and publisher_id = ? and revoked_at is null and (expires_at is null or expires_at > now())
      order by created_at desc limit 1 for update`,
    [payer, publisherId],
  );
  return (row as { id: string; monthly_limit_micros: string } | undefined) ?? null;
}

/** What the publisher charged the payer's wallet this calendar month (UTC), less refunds and slashes. */
export async function spentThisMonth(em: EntityManager, payer: string, publisherId: string): Promise<bigint> {
  const [row] = await em.execute(
    `select coalesce(sum(amount_micros - refunded_micros - slashed_micros), 0)::text as spent from billing_charge
      where payer_user_id = ? and publisher_id = ? and source = 'allowance' and created_at >= ${MONTH_START}`,
    [payer, publisherId],
  );
  return BigInt(row.spent);
}

async function viewOf(em: EntityManager, allowance: Allowance): Promise<AllowanceView> {
  const now = new Date();
  return {
    id: allowance.id,
    publisherId: allowance.publisherId,
    publisherSlug: allowance.publisherSlug,
    monthlyLimit: formatMoney(BigInt(allowance.monthlyLimitMicros)),
    spentThisMonth: formatMoney(await spentThisMonth(em, allowance.payerUserId, allowance.publisherId)),
    expiresAt: allowance.expiresAt,
    revokedAt: allowance.revokedAt,
    active: !allowance.revokedAt && (!allowance.expiresAt || allowance.expiresAt > now),
    createdAt: allowance.createdAt,
  };
}

export interface GrantAllowanceInput {
  publisherSlug: string;
  monthlyLimit: string;
  expiresAt?: Date | null;
}

/**
 * The payer lets a publisher charge their wallet up to an amount per calendar month, until it
 * expires or is revoked. A new grant replaces the payer's earlier one for that publisher.
 */
export async function grantAllowance(context: RequestContext, input: GrantAllowanceInput, idempotencyKey?: string | null): Promise<AllowanceView> {
  const { userId } = requireIdentity(context);
  const publisher = await findBilledPublisher(context, input.publisherSlug);
  const limit = amountOf(input.monthlyLimit, 'monthly_limit');
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt && expiresAt <= new Date()) throw badRequest('invalid_expiry', 'expires_at must be in the future');
  return idempotent(context, 'grant-allowance', idempotencyKey, { publisher: publisher.publisherId, limit, expiresAt }, async () => {
    const allowance = await context.em.transactional(async (tx) => {
      await tx.execute(
        `update billing_allowance set revoked_at = now() where payer_user_id = ? and publisher_id = ? and revoked_at is null`,
        [userId, publisher.publisherId],
      );
      return persisted(tx, Object.assign(new Allowance(), { payerUserId: userId, publisherId: publisher.publisherId, publisherSlug: publisher.slug, monthlyLimitMicros: limit, expiresAt }));
    });
    return viewOf(context.em, allowance);
  });
}

export async function listAllowances(context: RequestContext): Promise<AllowanceView[]> {
  const { userId } = requireIdentity(context);
  const allowances = await context.em.find(Allowance, { payerUserId: userId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  const views: AllowanceView[] = [];
  for (const allowance of allowances) views.push(await viewOf(context.em, allowance));
  return views;
}

/**
 * Revoked at once: a charge waiting on the allowance sees it revoked; 404 for another payer's.
 * The row is locked before the time is read, so revoked_at comes after every charge that held it
 * (a plain UPDATE reads clock_timestamp() before it waits for a charge's FOR UPDATE lock).
 */
export async function revokeAllowance(context: RequestContext, id: string): Promise<AllowanceView> {
  const { userId } = requireIdentity(context);
  if (!isUuid(id)) throw notFound('Allowance');
  const [row] = await context.em.execute(
    `with locked as (select id from billing_allowance where id = ? and payer_user_id = ? for update)
     update billing_allowance a set revoked_at = coalesce(a.revoked_at, clock_timestamp()) from locked where a.id = locked.id returning a.id`,
    [id, userId],
  );
  if (!row) throw notFound('Allowance');
  const allowance = await context.em.findOneOrFail(Allowance, { id }, { refresh: true });
  return viewOf(context.em, allowance);
}
