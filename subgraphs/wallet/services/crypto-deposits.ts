import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { AppError, badRequest, notFound } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { ensurePrepaidAccount, getAccountBalance, pickSystemAccount, transfer } from '../../../shared/ledger/index.js';
import { formatMoney, parsePositiveMoney } from '../../../shared/money.js';
import {
  decodePaymentHeader,
  findNetwork,
  markPayment,
  PaymentRejected,
  recordPayment,
  settlePayment,
  SettlementUnknown,
  verifyExactPayment,
  type PaymentTerms,
  type Settlement,
} from '../../../shared/x402/index.js';

export const MAX_CRYPTO_DEPOSIT = 10_000_000_000n;

/** Who is paid: the publisher's own wallet when it has one, else the platform's X402_PAY_TO on X402_NETWORK. */
async function payeeFor(context: RequestContext, publisherId: string) {
  const lookup = context.services.ports.publisherPayee;
  if (lookup) {
    const payee = await lookup(context.em, publisherId);
    if (!payee) throw notFound('Publisher');
    const network = findNetwork(payee.walletNetworkId);
    if (payee.walletAddress && network) return { payTo: payee.walletAddress, network };
  }
  const { payTo, network } = context.services.config.x402;
  const fallback = findNetwork(network);
  if (!payTo || !fallback) throw new AppError(503, 'onchain_payments_unavailable', 'On-chain payments are not configured');
  return { payTo, network: fallback };
}

/** Validates the body and works out the payment terms (402 instructions) for this deposit. */
export async function cryptoDepositTerms(context: RequestContext, body: Record<string, unknown>): Promise<PaymentTerms> {
  requireIdentity(context);
  const amount = parsePositiveMoney(body.amount);
  if (amount > MAX_CRYPTO_DEPOSIT) throw badRequest('invalid_amount', 'amount is too large');
  const publisherId = body.publisher_id;
  if (typeof publisherId !== 'string' || !isUuid(publisherId)) throw badRequest('invalid_publisher_id', 'publisher_id must be a uuid');
  const { payTo, network } = await payeeFor(context, publisherId);
  return {
    network,
    payTo,
    amount,
    resource: `${context.services.config.publicUrl}/wallet/deposit/crypto`,
    description: `Prepaid credits of ${formatMoney(amount)} USD for publisher ${publisherId}`,
  };
}

export interface CryptoDepositResult {
  settlement: Settlement;
  data: { amount: string; publisher_id: string; prepaid_balance: string; transaction_id: string; network: string; payer: string; transaction: string };
}

/**
 * Second step: verify the signed authorization, record (network, payer, nonce) once, settle, then
 * credit the caller's prepaid account with that publisher.
 */
export async function acceptCryptoDeposit(
  context: RequestContext,
  terms: PaymentTerms,
  publisherId: string,
  header: string,
): Promise<CryptoDepositResult> {
  const { userId } = requireIdentity(context);
  const payment = verifyExactPayment(decodePaymentHeader(header), terms);
  const em = context.em as EntityManager;
  if (!(await recordPayment(em, terms.network, payment, { payTo: terms.payTo, resource: terms.resource }))) {
    throw new PaymentRejected('duplicate_settlement');
  }
  const idempotencyKey = `x402:${terms.network.caip2}:${payment.payer.toLowerCase()}:${payment.nonce}`;
  let settlement: Settlement;
  try {
    const { settlement: mode, facilitatorUrl } = context.services.config.x402;
    settlement = await settlePayment(payment, terms, { mode, facilitatorUrl });
  } catch (error) {
    if (error instanceof SettlementUnknown) {
      // It may have gone on-chain: kept with the deposit it still needs, never marked failed.
      const deposit = { idempotencyKey, amount: terms.amount.toString(), kind: 'deposit', userId, publisherId };
      await markPayment(em, terms.network, payment, 'settle_unknown', null, [deposit]);
      context.log.error({ network: terms.network.caip2, payer: payment.payer, nonce: payment.nonce, deposit }, 'x402 deposit kept as settle_unknown: the facilitator gave no clear answer');
    } else {
      await markPayment(em, terms.network, payment, 'failed', null);
    }
    throw error;
  }
  const prepaid = await ensurePrepaidAccount(em, userId, publisherId);
  const credited = await em.transactional(async (tx) => {
    const db = tx as EntityManager;
    const moved = await transfer(db, {
      idempotencyKey,
      debit: await pickSystemAccount(db, 'onchain_clearing', { shardKey: idempotencyKey }),
      credit: prepaid,
      amount: terms.amount,
      kind: 'deposit',
      reference: settlement.transaction || payment.nonce,
      metadata: { method: 'x402', network: terms.network.caip2, payer: payment.payer, publisher_id: publisherId },
    });
    await markPayment(db, terms.network, payment, 'settled', settlement.transaction || null);
    return moved;
  });
  const balance = await getAccountBalance(em, prepaid);
  return {
    settlement,
    data: {
      amount: formatMoney(terms.amount),
      publisher_id: publisherId,
      prepaid_balance: formatMoney(balance.available),
      transaction_id: credited.id,
      network: terms.network.caip2,
      payer: payment.payer,
      transaction: settlement.transaction,
    },
  };
}
