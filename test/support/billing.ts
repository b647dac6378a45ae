import Stripe from 'stripe';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TestPlatform } from './platform.js';

/** An operator secret (ADMIN_API_KEYS) for billing tests. */
export const OPERATOR_KEY = 'operator-secret-for-billing-tests-0123456789';
export const BILLING_WEBHOOK_SECRET = 'whsec_test_secret_for_billing';

const signer = new Stripe('sk_test_billing');

/** Delivers an event to POST /webhooks/stripe, signed as Stripe signs it (with another secret: forged). */
export function deliverStripeEvent(t: TestPlatform, event: unknown, secret = BILLING_WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret });
  return t.api.request('POST', '/webhooks/stripe', undefined, { raw: payload, headers: { 'stripe-signature': signature } });
}

export const emOf = (t: TestPlatform) => t.platform.services.orm.em.fork() as EntityManager;

/** Usage recorded as another domain records it: through the recordUsage port. */
export async function recordUsage(
  t: TestPlatform,
  organizationId: string,
  usage: { meter: string; quantity: string; unitPriceMicros: bigint; occurredAt: Date; idempotencyKey?: string },
): Promise<boolean> {
  const record = t.platform.services.ports.recordUsage;
  if (!record) throw new Error('recordUsage port is not filled');
  return record(emOf(t), { organizationId, idempotencyKey: usage.idempotencyKey ?? `test-usage:${randomUUID()}`, ...usage });
}

export const asOperator = { token: OPERATOR_KEY };
