import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';

/**
 * Work whose duration must not show in the answer (e.g. whether an account exists): the request
 * answers at once and this runs after, on its own EntityManager, with failures logged. It is
 * background work, so a stop waits for it before it closes the database (an e-mail half sent).
 */
export function runAfterResponse(context: RequestContext, name: string, work: (em: EntityManager) => Promise<void>): void {
  const em = context.services.orm.em.fork() as EntityManager;
  const afterResponse = new Promise((resolve) => setImmediate(resolve)).then(() => work(em));
  context.services.background.track(afterResponse).catch((error) => context.log.error({ err: error, task: name }, 'background task failed'));
}
