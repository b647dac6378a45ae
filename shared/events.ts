import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from './logger.js';

/** Domain events one subgraph announces and others react to, without importing each other. */
export interface PlatformEvents {
  'account.created': { userId: string; organizationId: string; kind: 'user' | 'agent' };
  'account.email_verified': { userId: string; email: string };
  /** An on-chain payment booked after its call was answered: what each publisher earned by it. */
  'x402.booked_late': { publisherEarnings: { publisherId: string; amount: bigint }[] };
  /** A Stripe event whose signature was verified at POST /webhooks/stripe (each domain acts on its own types). */
  'stripe.event_received': { id: string; type: string; created: number; object: Record<string, unknown> };
}

export type EventHandler<K extends keyof PlatformEvents> = (payload: PlatformEvents[K], em: EntityManager) => Promise<void>;

/**
 * Handlers run inside the publisher's transaction (same EntityManager), so a reaction such as a
 * bonus commits or rolls back with the change that caused it.
 */
export class EventBus {
  private readonly handlers = new Map<keyof PlatformEvents, EventHandler<any>[]>();

  constructor(private readonly log: Logger) {}

  on<K extends keyof PlatformEvents>(type: K, handler: EventHandler<K>): void {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
  }

  async publish<K extends keyof PlatformEvents>(type: K, payload: PlatformEvents[K], em: EntityManager): Promise<void> {
    for (const handler of this.handlers.get(type) ?? []) {
      this.log.debug({ type }, 'event');
      await handler(payload, em);
    }
  }
}
