import type { EntityManager } from '@mikro-orm/postgresql';
import { retriedTransaction } from '../../../shared/db/retried-transaction.js';
import type { PlatformEvents } from '../../../shared/events.js';
import { isUuid } from '../../../shared/ids.js';
import { pickSystemAccount, transfer } from '../../../shared/ledger/index.js';
import { centsToMicros } from '../../../shared/money.js';
import type { PaymentStatus } from '../entities/invoice-payment.js';

type StripeEvent = PlatformEvents['stripe.event_received'];

interface IntentObject {
  id?: string;
  status?: string;
  amount?: number;
  amount_received?: number;
  currency?: string;
  metadata?: Record<string, string>;
  last_payment_error?: { message?: string; code?: string } | null;
}

/** What the intent's own state says of the payment (not the event's name, which may arrive out of order). */
function paymentStatusOf(event: StripeEvent, intent: IntentObject): { status: PaymentStatus; reason: string | null } {
  if (intent.status === 'succeeded') return { status: 'succeeded', reason: null };
  if (intent.status === 'canceled') return { status: 'canceled', reason: null };
  const error = intent.last_payment_error;
  if (event.type === 'payment_intent.payment_failed' || (intent.status === 'requires_payment_method' && error)) {
    return { status: 'failed', reason: error?.message ?? error?.code ?? 'The payment failed' };
  }
  return { status: 'pending', reason: null };
}

/**
 * Applies a signed `payment_intent.*` event for one of our invoices, once per event id (a duplicate
 * delivery does nothing). `succeeded` is final: it books the money (card clearing -> platform
 * revenue, keyed by the intent, so it is booked once) and marks the invoice paid; an event older
 * than the last one applied, or any event after success, changes nothing.
 */
export async function applyPaymentIntentEvent(em: EntityManager, event: StripeEvent): Promise<void> {
  if (!event.type.startsWith('payment_intent.')) return;
  const intent = event.object as IntentObject;
  const invoiceId = intent.metadata?.invoice_id;
  if (intent.metadata?.purpose !== 'invoice' || !invoiceId || !isUuid(invoiceId) || typeof intent.id !== 'string') return;
  await retriedTransaction(em, async (tx) => {
    const fresh = await tx.execute(
      `insert into billing_stripe_event (event_id, type, received_at) values (?, ?, now()) on conflict (event_id) do nothing returning event_id`,
      [event.id, event.type],
    );
    if (fresh.length === 0) return;
    const [invoice] = await tx.execute(`select id, status from billing_invoice where id = ? for update`, [invoiceId]);
    if (!invoice) return;
    await tx.execute(
      `insert into billing_invoice_payment (id, invoice_id, intent_id, amount_cents, status, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, ?, 'pending', now(), now()) on conflict (intent_id) do nothing`,
      [invoiceId, intent.id, intent.amount ?? 0],
    );
    const [payment] = await tx.execute(`select id, status, last_event_at from billing_invoice_payment where intent_id = ? for update`, [intent.id]);
    if (payment.status === 'succeeded') return;
    const at = new Date(event.created * 1000);
    const { status, reason } = paymentStatusOf(event, intent);
    if (status !== 'succeeded' && payment.last_event_at && at < new Date(payment.last_event_at)) return;
    await tx.execute(`update billing_invoice_payment set status = ?, failure_reason = ?, last_event_at = ?, updated_at = now() where id = ?`, [
      status, reason, at, payment.id,
    ]);
    if (status !== 'succeeded') return;
    const cents = intent.amount_received ?? intent.amount ?? 0;
    if (intent.currency === 'usd' && Number.isInteger(cents) && cents > 0) {
      const idempotencyKey = `invoice-payment:${intent.id}`;
      await transfer(tx, {
        idempotencyKey,
        debit: await pickSystemAccount(tx, 'card_clearing', { shardKey: idempotencyKey }),
        credit: await pickSystemAccount(tx, 'platform_revenue', { shardKey: idempotencyKey }),
        amount: centsToMicros(cents),
        kind: 'invoice_payment',
        reference: invoiceId,
        metadata: { intent_id: intent.id },
      });
    }
    await tx.execute(`update billing_invoice set status = 'paid', paid_at = now() where id = ? and status in ('issued', 'uncollectible')`, [invoiceId]);
  });
}
