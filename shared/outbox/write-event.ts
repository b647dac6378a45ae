import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { announceChange } from '../db/change-notices.js';
import { encodeJson } from '../json-codec.js';

/**
 * Writes an event and one delivery per module subscribed to its type, in `em`'s transaction, and
 * tells every process on the database (NOTIFY, sent only if the transaction commits).
 */
export async function writeOutboxEvent(em: EntityManager, type: string, payload: unknown): Promise<string> {
  const id = randomUUID();
  await em.execute(
    `with event as (insert into outbox_event (id, type, payload, created_at) values (?, ?, ?::jsonb, now()) returning id)
     insert into outbox_delivery (event_id, consumer, available_at)
     select event.id, subscription.consumer, now() from event join outbox_subscription subscription on subscription.event_type = ?`,
    [id, type, encodeJson(payload), type],
    'run',
  );
  await announceChange(em, 'outbox', [type]);
  return id;
}
