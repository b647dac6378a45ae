import type { EntityManager } from '@mikro-orm/postgresql';

/** A new row with the entity's own defaults (ids, times) and these values, persisted at the next flush. */
export function persistNew<T extends object>(em: EntityManager, entity: new () => T, values: Partial<T>): T {
  const row = Object.assign(new entity(), values);
  em.persist(row);
  return row;
}
