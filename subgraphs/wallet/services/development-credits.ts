import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity, requireVerifiedEmail } from '../../../shared/context.js';
import { conflict, forbidden } from '../../../shared/errors.js';
import { ensureWalletAccount, pickSystemAccount, transfer } from '../../../shared/ledger/index.js';
import { walletCreditOf } from './credits.js';

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Test money to try paid calls without a card, outside production only: DEV_CREDITS_USD once per
 * account and UTC day (the day is in the idempotency key, so a second grant, even a concurrent one,
 * pays nothing), booked from the `development_grants` system account, never from real promotions.
 * An agent may take it unverified; a person needs a verified address, as for every other credit.
 */
export async function grantDevelopmentCredits(context: RequestContext) {
  const { config } = context.services;
  if (config.nodeEnv === 'production') {
    throw forbidden('Development credits are not available in production', 'not_available_in_production');
  }
  const identity = requireIdentity(context);
  if (identity.kind !== 'agent') requireVerifiedEmail(context);
  const day = utcDay(new Date());
  const idempotencyKey = `development-credits:${identity.userId}:${day}`;
  const granted = await transfer(context.em, {
    idempotencyKey,
    debit: await pickSystemAccount(context.em, 'development_grants', { shardKey: idempotencyKey }),
    credit: await ensureWalletAccount(context.em, identity.userId),
    amount: config.wallet.developmentCredits,
    kind: 'development_credit',
    reference: `development:${day}`,
  });
  if (granted.replayed) {
    throw conflict('already_granted_today', "Today's development credits were already granted; the next grant opens at midnight UTC");
  }
  return walletCreditOf(granted);
}
