import type { RequestContext } from '../../../shared/context.js';
import type { BillingHealth } from '../types/results.js';
import { onChainPayouts } from './send-payout.js';

/** Public: whether the database answers, whether Stripe and on-chain payouts are set up, and the last invoice run. Never a secret. */
export async function readBillingHealth(context: RequestContext): Promise<BillingHealth> {
  const { config } = context.services;
  let database = true;
  let lastInvoiceRunAt: Date | null = null;
  try {
    const [row] = await context.em.execute(`select max(finished_at) as last from billing_invoice_run`);
    lastInvoiceRunAt = row?.last ? new Date(row.last) : null;
  } catch (error) {
    context.log.warn({ err: error }, 'billing health: the database did not answer');
    database = false;
  }
  return {
    status: database ? 'ok' : 'degraded',
    database,
    stripeConfigured: Boolean(config.stripe.secretKey),
    onChainPayouts: onChainPayouts(config),
    lastInvoiceRunAt,
  };
}
