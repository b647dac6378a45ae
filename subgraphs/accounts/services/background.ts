import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';

/**
 * Work whose duration must not show in the answer (e.g. whether an account exists): the request
 * answers at once and this runs after, on its own EntityManager, with failures logged.
 */
export function runAfterResponse(context: RequestContext, name: string, work: (em: EntityManager) => Promise<void>): void {
  const em = context.services.orm.em.fork() as EntityManager;
  setImmediate(() => {
    work(em).catch((error) => context.log.error({ err: error, task: name }, 'background task failed'));
  });
}
