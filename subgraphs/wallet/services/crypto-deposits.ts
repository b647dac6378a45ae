import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { ensurePrepaidAccount, getAccountBalance } from '../../../shared/ledger/index.js';
import { formatMoney, parsePositiveMoney } from '../../../shared/money.js';
import {
  decodePaymentHeader,
  payeeOf,
  paymentKey,
  paymentKeyStem,
  storedPlan,
  PaymentRejected,
  recordPayment,
  settleAndBook,
  verifyExactPayment,
  type Payee,
  type PaymentKey,
  type PaymentTerms,
  type PlannedTransfer,
  type Settlement,
} from '../../../shared/x402/index.js';

export const MAX_CRYPTO_DEPOSIT = 10_000_000_000n;

/** Who is paid: the publisher's own wallet when it has one, else the platform's X402_PAY_TO on X402_NETWORK. */
async function payeeFor(context: RequestContext, publisherId: string): Promise<Payee> {
  const lookup = context.services.ports.publisherPayee;
  const publisher = lookup ? await lookup(context.em, publisherId) : null;
  if (lookup && !publisher) throw notFound('Publisher');
  return payeeOf(context.services.config.x402, publisher);
}

export type DepositTerms = PaymentTerms & Pick<Payee, 'paidToPlatform'>;

/** Validates the body and works out the payment terms (402 instructions) for this deposit. */
export async function cryptoDepositTerms(context: RequestContext, body: Record<string, unknown>): Promise<DepositTerms> {
  requireIdentity(context);
  const amount = parsePositiveMoney(body.amount);
  if (amount > MAX_CRYPTO_DEPOSIT) throw badRequest('invalid_amount', 'amount is too large');
  const publisherId = body.publisher_id;
  if (typeof publisherId !== 'string' || !isUuid(publisherId)) throw badRequest('invalid_publisher_id', 'publisher_id must be a uuid');
  return {
    ...(await payeeFor(context, publisherId)),
    amount,
    resource: `${context.services.config.publicUrl}/wallet/deposit/crypto`,
    description: `Prepaid credits of ${formatMoney(amount)} USD for publisher ${publisherId}`,
  };
}

export interface CryptoDepositResult {
  settlement: Settlement;
  /** False when the payment settled on-chain but its credit is not booked yet (the sweep books it). */
  booked: boolean;
  data: {
    amount: string;
    publisher_id: string;
    /** Null only when the balance could not be read after the payment settled. */
    prepaid_balance: string | null;
    transaction_id: string | null;
    network: string;
    payer: string;
    transaction: string;
    status: 'credited' | 'pending';
  };
}

/**
 * The deposit one authorization books into the caller's prepaid credits. Paid to the platform, it
 * comes out of on-chain clearing. Paid to the publisher's own wallet, the publisher already holds
 * the money: it comes out of the publisher's payable, as an advance that the calls spending these
 * credits pay back (leaving the publisher owing only the platform's fees).
 */
function depositPlan(deposit: { key: PaymentKey; amount: bigint; userId: string; publisherId: string; paidToPublisher: boolean }, reference: string): PlannedTransfer[] {
  const { key, amount, userId, publisherId } = deposit;
  const idempotencyKey = `x402:${paymentKeyStem(key)}`;
  return [
    {
      idempotencyKey,
      debit: deposit.paidToPublisher
        ? { kind: 'publisher_payable', publisherId, shardKey: idempotencyKey }
        : { kind: 'onchain_clearing', shardKey: idempotencyKey },
      credit: { kind: 'prepaid', userId, publisherId },
      amount,
      kind: 'deposit',
      reference,
      metadata: { method: 'x402', network: key.network, payer: key.payer, publisher_id: publisherId },
    },
  ];
}

/**
 * The caller's credits with the publisher after the deposit. The money has moved on-chain by now,
 * so a balance that cannot be read (the database may be what failed) is answered as null rather
 * than an error that would invite the caller to pay again.
 */
async function prepaidBalanceOf(context: RequestContext, userId: string, publisherId: string): Promise<string | null> {
  const em = context.em as EntityManager;
  try {
    return formatMoney((await getAccountBalance(em, await ensurePrepaidAccount(em, userId, publisherId))).available);
  } catch (error) {
    context.log.warn({ err: error }, 'prepaid balance not read after a settled deposit');
    return null;
  }
}

/**
 * Second step: verify the signed authorization, record (network, payer, nonce) once, settle, then
 * credit the caller's prepaid account with that publisher. Once settled the money has moved, so a
 * credit that cannot be booked now is kept for the sweep and answered as pending, never lost.
 */
export async function acceptCryptoDeposit(
  context: RequestContext,
  terms: DepositTerms,
  publisherId: string,
  header: string,
): Promise<CryptoDepositResult> {
  const { userId } = requireIdentity(context);
  const payment = verifyExactPayment(decodePaymentHeader(header), terms);
  const em = context.em as EntityManager;
  const key = paymentKey(terms.network, payment);
  const plan = (reference: string) => depositPlan({ key, amount: terms.amount, userId, publisherId, paidToPublisher: !terms.paidToPlatform }, reference);
  if (!(await recordPayment(em, terms.network, payment, { payTo: terms.payTo, resource: terms.resource, plan: storedPlan(plan(key.nonce)) }))) {
    throw new PaymentRejected('duplicate_settlement');
  }
  const { settlement: mode, facilitatorUrl } = context.services.config.x402;
  const { settlement, booked } = await settleAndBook(em, key, payment, terms, { mode, facilitatorUrl }, plan, context.log);
  return {
    settlement,
    booked: booked !== null,
    data: {
      amount: formatMoney(terms.amount),
      publisher_id: publisherId,
      prepaid_balance: await prepaidBalanceOf(context, userId, publisherId),
      transaction_id: booked?.[0]?.id ?? null,
      network: terms.network.caip2,
      payer: payment.payer,
      transaction: settlement.transaction,
      status: booked ? 'credited' : 'pending',
    },
  };
}
