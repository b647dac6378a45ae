import type { EntityManager } from '@mikro-orm/postgresql';

/** A new entity, persisted in `em` (written at its flush or transaction's commit). */
export function persisted<T extends object>(em: EntityManager, entity: T): T {
  em.persist(entity);
  return entity;
}
