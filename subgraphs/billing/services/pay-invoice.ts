import type { RequestContext } from '../../../shared/context.js';
import { badRequest, unauthorized } from '../../../shared/errors.js';
import { PaymentMethod } from '../entities/payment-method.js';
import type { PaymentIntentCreated } from '../types/results.js';
import { invoiceNotFound, isMemberOf } from './access.js';
import { findInvoice } from './invoices.js';
import { callStripe, requireStripe } from './stripe-calls.js';
import { ensureStripeCustomer } from './stripe-customers.js';

/**
 * A member pays an issued invoice with an amount due: a Stripe PaymentIntent on the organization's
 * customer (with its default payment method when there is one). Stripe's idempotency key is the
 * invoice's, so paying twice answers the same intent. The invoice is paid only when Stripe's signed
 * `payment_intent.succeeded` arrives.
 */
export async function payInvoice(context: RequestContext, id: string): Promise<PaymentIntentCreated> {
  if (!context.identity) throw unauthorized();
  const invoice = await findInvoice(context.em, id);
  if (!(await isMemberOf(context, invoice.organizationId))) throw invoiceNotFound();
  if (invoice.status !== 'issued' || invoice.amountDueCents <= 0n) {
    throw badRequest('invoice_not_payable', `The invoice is ${invoice.status}${invoice.status === 'issued' ? ' with nothing due' : ''}: only an issued invoice with an amount due can be paid`);
  }
  const stripe = requireStripe(context);
  const customer = await ensureStripeCustomer(context, stripe, invoice.organizationId);
  const method = await context.em.findOne(PaymentMethod, { organizationId: invoice.organizationId, isDefault: true });
  const intent = await callStripe(context, 'payment_refused', () =>
    stripe.paymentIntents.create(
      {
        amount: Number(invoice.amountDueCents),
        currency: invoice.currency,
        customer,
        ...(method ? { payment_method: method.stripePaymentMethodId } : {}),
        description: `Invoice ${invoice.period}`,
        metadata: { purpose: 'invoice', invoice_id: invoice.id, organization_id: invoice.organizationId },
      },
      { idempotencyKey: `invoice-payment:${invoice.id}` },
    ),
  );
  await context.em.execute(
    `insert into billing_invoice_payment (id, invoice_id, intent_id, amount_cents, status, created_at, updated_at)
     values (gen_random_uuid(), ?, ?, ?, 'pending', now(), now()) on conflict (intent_id) do nothing`,
    [invoice.id, intent.id, intent.amount],
  );
  return { id: intent.id, status: intent.status, clientSecret: intent.client_secret, amountCents: intent.amount, invoiceId: invoice.id };
}
