import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from './logger.js';
import { writeOutboxEvent } from './outbox/write-event.js';

/** Domain events one subgraph announces and others react to, without importing each other. */
export interface PlatformEvents {
  'account.created': { userId: string; organizationId: string; kind: 'user' | 'agent' };
  'account.email_verified': { userId: string; email: string };
  /** An on-chain payment booked after its call was answered: what each publisher earned by it. */
  'x402.booked_late': { publisherEarnings: { publisherId: string; amount: bigint }[] };
  /** A Stripe event whose signature was verified at POST /webhooks/stripe (each domain acts on its own types). */
  'stripe.event_received': { id: string; type: string; created: number; object: Record<string, unknown> };
}

export type EventType = keyof PlatformEvents;
export type EventHandler<K extends EventType> = (payload: PlatformEvents[K], em: EntityManager) => Promise<void>;

export interface EventHandlerOptions {
  /**
   * Runs inside the publisher's transaction instead of through the outbox: only for a reaction
   * that must commit or roll back with its cause, and only to events its own module publishes
   * (another module's events may be published in another process, where this handler is not).
   */
  withCause?: boolean;
}

/** Told of each event written, so the process can deliver it at once when it runs a consumer of its type. */
export type EventWritten = (em: EntityManager, eventId: string, type: EventType) => Promise<void>;

/**
 * Domain events through a transactional outbox (shared/outbox): `publish` writes the event in the
 * publisher's transaction, with one delivery per module subscribed to its type; the process(es)
 * running that module deliver it after the commit, at least once, and each delivery runs in a
 * transaction that also records the event as processed by the module, so the effect happens
 * exactly once. Handlers are the module's that registered them in its `connect()`.
 */
export class EventBus {
  private readonly byModule = new Map<string, Map<EventType, EventHandler<any>[]>>();
  private readonly withCause = new Map<EventType, EventHandler<any>[]>();
  private connecting: string | null = null;
  private onWritten: EventWritten | null = null;

  constructor(private readonly log: Logger) {}

  /** The handlers `connect` registers belong to `module` (openServices calls each module's connect through this). */
  async connectModule(module: string, connect: () => void | Promise<void>): Promise<void> {
    this.connecting = module;
    try {
      await connect();
    } finally {
      this.connecting = null;
    }
  }

  on<K extends EventType>(type: K, handler: EventHandler<K>, options: EventHandlerOptions = {}): void {
    if (options.withCause) return void this.withCause.set(type, [...(this.withCause.get(type) ?? []), handler]);
    const module = this.connecting;
    if (!module) throw new Error(`events.on('${type}') must be called from a module's connect(): its handlers run where that module runs`);
    const handlers = this.byModule.get(module) ?? new Map<EventType, EventHandler<any>[]>();
    handlers.set(type, [...(handlers.get(type) ?? []), handler]);
    this.byModule.set(module, handlers);
  }

  async publish<K extends EventType>(type: K, payload: PlatformEvents[K], em: EntityManager): Promise<void> {
    this.log.debug({ type }, 'event');
    for (const handler of this.withCause.get(type) ?? []) await handler(payload, em);
    const eventId = await writeOutboxEvent(em, type, payload);
    await this.onWritten?.(em, eventId, type);
  }

  /** The outbox consumer of this process hears of each event written here. */
  whenWritten(listener: EventWritten): void {
    this.onWritten = listener;
  }

  /** The event types each of `modules` handles: its subscriptions. */
  subscriptionsOf(modules: readonly string[]): { type: EventType; consumer: string }[] {
    return modules.flatMap((consumer) => [...(this.byModule.get(consumer)?.keys() ?? [])].map((type) => ({ type, consumer })));
  }

  handlersOf(module: string, type: string): EventHandler<any>[] {
    return this.byModule.get(module)?.get(type as EventType) ?? [];
  }
}
