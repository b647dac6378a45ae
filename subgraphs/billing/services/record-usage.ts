import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../../../shared/ids.js';
import type { UsageRecord } from '../../../shared/ports.js';

const METER = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
const QUANTITY = /^\d{1,20}(\.\d{1,9})?$/;

/**
 * The `recordUsage` port: billable usage for an organization, invoiced with the month it happened
 * in. The idempotency key is UNIQUE, so a replay (even concurrent) records nothing and answers false.
 * Bad input is a programming error of the recording domain, not a caller's: it throws.
 */
export async function recordUsage(em: EntityManager, usage: UsageRecord): Promise<boolean> {
  if (!isUuid(usage.organizationId)) throw new Error(`recordUsage: organizationId is not a uuid (${usage.organizationId})`);
  if (!METER.test(usage.meter)) throw new Error(`recordUsage: meter must be dotted lower-case words (${usage.meter})`);
  if (!QUANTITY.test(usage.quantity)) throw new Error(`recordUsage: quantity must be a non-negative decimal with at most 9 decimals (${usage.quantity})`);
  if (usage.unitPriceMicros < 0n) throw new Error('recordUsage: unitPriceMicros cannot be negative');
  if (!usage.idempotencyKey || usage.idempotencyKey.length > 255) throw new Error('recordUsage: idempotencyKey must be 1 to 255 characters');
  if (Number.isNaN(usage.occurredAt.getTime())) throw new Error('recordUsage: occurredAt is not a date');
  const inserted = await em.execute(
    `insert into billing_usage_record (id, idempotency_key, organization_id, meter, quantity, unit_price_micros, occurred_at, created_at)
     values (gen_random_uuid(), ?, ?, ?, ?::numeric, ?, ?, now()) on conflict (idempotency_key) do nothing returning id`,
    [usage.idempotencyKey, usage.organizationId, usage.meter, usage.quantity, usage.unitPriceMicros.toString(), usage.occurredAt],
  );
  return inserted.length > 0;
}
