import type { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import type { RequestContext } from '../../../shared/context.js';
import { StripeCustomer } from '../entities/stripe-customer.js';
import { callStripe } from './stripe-calls.js';

/**
 * The organization's Stripe customer, created on first use. Stripe's idempotency key is derived from
 * the organization, so two first uses at once create one customer, and the row is inserted once.
 */
export async function ensureStripeCustomer(context: RequestContext, stripe: Stripe, organizationId: string): Promise<string> {
  const em = context.em as EntityManager;
  const known = await em.findOne(StripeCustomer, { organizationId });
  if (known) return known.customerId;
  const customer = await callStripe(context, 'stripe_customer_refused', () =>
    stripe.customers.create({ metadata: { organization_id: organizationId } }, { idempotencyKey: `organization-customer:${organizationId}` }),
  );
  await em.execute(
    `insert into billing_stripe_customer (organization_id, customer_id, created_at) values (?, ?, now()) on conflict (organization_id) do nothing`,
    [organizationId, customer.id],
  );
  const [row] = await em.execute(`select customer_id from billing_stripe_customer where organization_id = ?`, [organizationId]);
  return row.customer_id;
}
