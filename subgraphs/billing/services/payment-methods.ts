import type { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { PaymentMethod } from '../entities/payment-method.js';
import type { PaymentMethodView } from '../types/results.js';
import { callStripe, requireStripe } from './stripe-calls.js';
import { ensureStripeCustomer } from './stripe-customers.js';

const STRIPE_ID = /^pm_[A-Za-z0-9_]{1,200}$/;
const paymentMethodNotFound = () => notFound('Payment method');

const viewOf = (method: PaymentMethod): PaymentMethodView => ({
  id: method.id,
  stripePaymentMethodId: method.stripePaymentMethodId,
  type: method.type,
  brand: method.brand,
  last4: method.last4,
  expMonth: method.expMonth,
  expYear: method.expYear,
  isDefault: method.isDefault,
  createdAt: method.createdAt,
});

/** The `hasPaymentMethod` port: whether the user stored one (the wallet's payment-method bonus). */
export async function hasPaymentMethod(em: EntityManager, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  return (await em.count(PaymentMethod, { addedByUserId: userId })) > 0;
}

export async function listPaymentMethods(context: RequestContext): Promise<PaymentMethodView[]> {
  const { organizationId } = requireIdentity(context);
  const methods = await context.em.find(PaymentMethod, { organizationId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  return methods.map(viewOf);
}

/** Changes to one organization's methods run one at a time: its customer row is locked first. */
async function lockedMethods<T>(context: RequestContext, organizationId: string, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  return context.em.transactional(async (tx) => {
    await tx.execute(`select 1 from billing_stripe_customer where organization_id = ? for update`, [organizationId]);
    return work(tx as EntityManager);
  });
}

/** Keeps exactly one default when there are methods: `preferred`, else the current one, else the most recent. */
async function settleDefault(tx: EntityManager, organizationId: string, preferred: string | null): Promise<void> {
  await tx.execute(
    `with chosen as (
       select coalesce(?::uuid,
         (select id from billing_payment_method where organization_id = ? and is_default order by created_at desc limit 1),
         (select id from billing_payment_method where organization_id = ? order by created_at desc, id desc limit 1)) as id)
     update billing_payment_method set is_default = (id = (select id from chosen)) where organization_id = ?`,
    [preferred, organizationId, organizationId, organizationId],
  );
}

/**
 * Attaches a Stripe payment method to the organization's customer (created on first use). Stripe's
 * refusal is a 400 with its reason. The first method, or one added with setAsDefault, is the default.
 */
export async function addPaymentMethod(context: RequestContext, input: { paymentMethodId?: string | null; setAsDefault?: boolean | null }) {
  const identity = requireIdentity(context);
  const stripeId = input.paymentMethodId?.trim() ?? '';
  if (!stripeId) throw badRequest('payment_method_id_required', 'payment_method_id is required (a Stripe payment method id, pm_...)');
  if (!STRIPE_ID.test(stripeId)) throw badRequest('invalid_payment_method', 'payment_method_id must be a Stripe payment method id (pm_...)');
  const stripe = requireStripe(context);
  const customer = await ensureStripeCustomer(context, stripe, identity.organizationId);
  const attached: Stripe.PaymentMethod = await callStripe(context, 'payment_method_refused', () => stripe.paymentMethods.attach(stripeId, { customer }));
  const id = await lockedMethods(context, identity.organizationId, async (tx) => {
    await tx.execute(
      `insert into billing_payment_method (id, organization_id, added_by_user_id, stripe_payment_method_id, type, brand, last4, exp_month, exp_year, is_default, created_at)
       values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, false, now()) on conflict (organization_id, stripe_payment_method_id) do nothing`,
      [
        identity.organizationId, identity.userId, attached.id, attached.type ?? 'card',
        attached.card?.brand ?? null, attached.card?.last4 ?? null, attached.card?.exp_month ?? null, attached.card?.exp_year ?? null,
      ],
    );
    const [row] = await tx.execute(`select id from billing_payment_method where organization_id = ? and stripe_payment_method_id = ?`, [identity.organizationId, attached.id]);
    await settleDefault(tx, identity.organizationId, input.setAsDefault ? row.id : null);
    return row.id as string;
  });
  context.em.clear();
  return viewOf(await context.em.findOneOrFail(PaymentMethod, { id }));
}

/** Detaches it at Stripe and forgets it; deleting the default promotes the most recent other one. */
export async function deletePaymentMethod(context: RequestContext, id: string): Promise<boolean> {
  const identity = requireIdentity(context);
  const method = isUuid(id) ? await context.em.findOne(PaymentMethod, { id, organizationId: identity.organizationId }) : null;
  if (!method) throw paymentMethodNotFound();
  const stripe = requireStripe(context);
  await callStripe(context, 'payment_method_refused', () => stripe.paymentMethods.detach(method.stripePaymentMethodId)).catch((error) => {
    // Already detached at Stripe (removed there, or a retry of this delete): forget it here too.
    if (error?.code !== 'payment_method_refused') throw error;
  });
  const deleted = await lockedMethods(context, identity.organizationId, async (tx) => {
    const removed = await tx.execute(`delete from billing_payment_method where id = ? and organization_id = ? returning id`, [method.id, identity.organizationId]);
    if (removed.length > 0) await settleDefault(tx, identity.organizationId, null);
    return removed.length > 0;
  });
  if (!deleted) throw paymentMethodNotFound();
  return true;
}
