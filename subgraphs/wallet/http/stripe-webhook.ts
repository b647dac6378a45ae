import express, { type Router } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import type { RequestContext } from '../../../shared/context.js';
import { AppError, badRequest } from '../../../shared/errors.js';
import type { PlatformServices } from '../../../shared/services.js';
import { creditCheckoutSession } from '../services/card-deposits.js';
import { stripeClient } from '../../../shared/stripe-client.js';

/** Verifies the signature on the raw body (constructEvent also checks the 300 s timestamp window). */
function verifiedEvent(services: PlatformServices, body: Buffer, signature: string | undefined): Stripe.Event {
  const stripe = stripeClient(services.config);
  const secret = services.config.stripe.webhookSecret;
  if (!stripe || !secret) throw new AppError(503, 'card_payments_unavailable', 'Card payments are not configured');
  if (!signature || !Buffer.isBuffer(body)) throw badRequest('invalid_signature', 'Missing Stripe-Signature header or body');
  try {
    return stripe.webhooks.constructEvent(body, signature, secret);
  } catch {
    throw badRequest('invalid_signature', 'The Stripe signature does not match');
  }
}

/**
 * POST /webhooks/stripe: REST only, raw body. Answers 200 for every verified event, even ones it
 * ignores. The wallet credits card deposits; every verified event is then announced to other domains.
 */
export function stripeWebhookRoute(router: Router, services: PlatformServices) {
  router.post('/webhooks/stripe', express.raw({ type: '*/*', limit: '1mb' }), async (req, res, next) => {
    try {
      const event = verifiedEvent(services, req.body, req.header('stripe-signature'));
      const context = res.locals.context as RequestContext;
      const credited = await creditCheckoutSession(context.em as EntityManager, event);
      context.log.info({ eventId: event.id, type: event.type, credited: Boolean(credited), replayed: credited?.replayed }, 'stripe webhook');
      // Other domains act on their own event types (billing: payment_intent.*); a failure answers 5xx and Stripe delivers again.
      const object = event.data.object as unknown as Record<string, unknown>;
      await services.events.publish('stripe.event_received', { id: event.id, type: event.type, created: event.created, object }, context.em as EntityManager);
      res.json({ received: true });
    } catch (error) {
      next(error);
    }
  });
}
