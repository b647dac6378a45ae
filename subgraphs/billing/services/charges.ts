import type { EntityManager } from '@mikro-orm/postgresql';
import { persisted } from './persisted.js';
import type { RequestContext } from '../../../shared/context.js';
import { retriedTransaction } from '../../../shared/db/retried-transaction.js';
import {
  ensureWalletAccount,
  getAccountBalance,
  insufficientBalance,
  pickSystemAccount,
  prepaidAccountId,
  transfer,
  withLedgerLocks,
} from '../../../shared/ledger/index.js';
import { MICROS_PER_DOLLAR } from '../../../shared/money.js';
import type { BilledPublisher } from '../../../shared/ports.js';
import { Charge, type ChargeSource } from '../entities/charge.js';
import type { PublisherChargeInfo } from '../types/results.js';
import { lockActiveAllowance, spentThisMonth } from './allowances.js';
import { amountOf, metadataOf, payerOf, textOf } from './charge-input.js';
import { chargeInfoOf } from './charge-views.js';
import { idempotent } from './idempotency.js';
import { MANAGERS, managedPublisher } from './publisher-access.js';

export interface ChargeInput {
  payerId?: string | null;
  amount?: string | null;
  description?: string | null;
  metadata?: Record<string, unknown> | null;
}

/** The gateway's part of a charge: the publisher's fee percent of it, rounded down (never above the amount). */
export function gatewayFeeOf(amount: bigint, feePercent: bigint): bigint {
  const fee = (amount * feePercent) / (100n * MICROS_PER_DOLLAR);
  return fee > amount ? amount : fee;
}

interface Funding {
  source: ChargeSource;
  allowanceId: string | null;
  account: string;
}

/**
 * Consent first: the payer's credits with this publisher when they cover the amount, else their
 * wallet within an allowance they granted this publisher (its row locked, so a revoke waits for the
 * charge or the charge sees the revoke). Neither: 402, and the general balance is never touched.
 */
async function fundingOf(tx: EntityManager, publisherId: string, payer: string, amount: bigint): Promise<Funding> {
  const credits = prepaidAccountId(payer, publisherId);
  if ((await getAccountBalance(tx, credits)).available >= amount) return { source: 'credits', allowanceId: null, account: credits };
  const allowance = await lockActiveAllowance(tx, payer, publisherId);
  if (!allowance) throw insufficientBalance();
  const spent = await spentThisMonth(tx, payer, publisherId);
  if (spent + amount > BigInt(allowance.monthly_limit_micros)) throw insufficientBalance();
  return { source: 'allowance', allowanceId: allowance.id, account: await ensureWalletAccount(tx, payer) };
}

/**
 * A publisher charges a payer: the payer's side debited, the publisher's payable credited, the
 * gateway fee passed on to platform revenue; the two transfers and the charge commit together.
 */
async function chargePayer(
  context: RequestContext,
  publisher: BilledPublisher,
  id: string,
  payer: string,
  amount: bigint,
  description: string,
  metadata: Record<string, unknown> | null,
) {
  // A retry of an attempt that died after committing finds its charge.
  const done = await context.em.findOne(Charge, { id, publisherId: publisher.publisherId });
  if (done) return chargeInfoOf(done);
  const key = `publisher-charge:${id}`;
  const fee = gatewayFeeOf(amount, publisher.gatewayFeePercent);
  const payable = await pickSystemAccount(context.em, 'publisher_payable', { publisherId: publisher.publisherId, shardKey: key });
  const revenue = await pickSystemAccount(context.em, 'platform_revenue', { shardKey: key });
  const charge = await retriedTransaction(context.em, async (tx) => {
    const funding = await fundingOf(tx, publisher.publisherId, payer, amount);
    await withLedgerLocks(tx, { accounts: [funding.account, payable, revenue] }, async (locked) => {
      const common = { reference: id, metadata: { publisher_id: publisher.publisherId, charge_id: id } };
      await transfer(locked, { ...common, idempotencyKey: `${key}:capture`, debit: funding.account, credit: payable, amount, kind: 'publisher_charge' });
      if (fee > 0n) await transfer(locked, { ...common, idempotencyKey: `${key}:fee`, debit: payable, credit: revenue, amount: fee, kind: 'gateway_fee' });
    });
    const row = persisted(tx, Object.assign(new Charge(), {
      id,
      publisherId: publisher.publisherId,
      payerUserId: payer,
      source: funding.source,
      allowanceId: funding.allowanceId,
      amountMicros: amount,
      feeMicros: fee,
      description,
      metadata,
    }));
    await tx.flush();
    return row;
  });
  return chargeInfoOf(charge);
}

export async function createPublisherCharge(context: RequestContext, slug: string, input: ChargeInput, idempotencyKey?: string | null): Promise<PublisherChargeInfo> {
  const publisher = await managedPublisher(context, slug, MANAGERS);
  const payer = payerOf(input.payerId);
  const amount = amountOf(input.amount);
  const description = textOf(input.description, 'description', false);
  const metadata = metadataOf(input.metadata);
  return idempotent(context, `publisher-charge:${publisher.publisherId}`, idempotencyKey, { payer, amount, description, metadata }, (id) =>
    chargePayer(context, publisher, id, payer, amount, description, metadata),
  );
}
