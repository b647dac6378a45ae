import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../shared/errors.js';
import { voidPending } from '../../../shared/ledger/index.js';
import type { PlatformServices } from '../../../shared/services.js';
import { everyMinute } from '../../../shared/timing.js';
import { releaseKeyOf } from './charging.js';

const BATCH = 500;

/**
 * Read through ledger_transfer_pending_holds_index (its predicate is `type = 'reserve' and state =
 * 'pending'`), never the whole history. Only a call's holds (their keys end `:hold[:rest]`, see
 * releaseKeyOf): a charge held some other way has no release key to derive, and would otherwise
 * head every batch for ever.
 */
export const ORPHANED_HOLDS_SQL = `select id, idempotency_key from ledger_transfer
  where type = 'reserve' and state = 'pending' and kind = 'charge' and created_at < now() - make_interval(secs => ?)
    and (idempotency_key like '%:hold' or idempotency_key like '%:hold:rest')
  order by created_at limit ${BATCH}`;

/**
 * A call's hold lives only until the upstream answers (at most PROXY_TIMEOUT_MS). One still pending
 * long after that belongs to a process that died mid-call: it is released, so the caller's money is
 * not held forever. Voiding uses the call's own release key, derived from each hold's key (a split
 * call has two), so replicas sweeping at once, or a late release by the call itself, move nothing twice.
 */
export async function releaseOrphanedHolds(em: EntityManager, olderThanSeconds: number): Promise<number> {
  const holds = await em.execute(ORPHANED_HOLDS_SQL, [olderThanSeconds]);
  let released = 0;
  for (const hold of holds) {
    try {
      await voidPending(em, { pendingId: hold.id, idempotencyKey: releaseKeyOf(hold.idempotency_key), metadata: { reason: 'orphaned' } });
      released += 1;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  return released;
}

export function startOrphanedHoldSweeper(services: PlatformServices): void {
  const olderThan = services.config.proxy.holdExpirySeconds;
  const stop = everyMinute(
    async () => {
      const released = await releaseOrphanedHolds(services.orm.em.fork() as EntityManager, olderThan);
      if (released > 0) services.log.warn({ released }, 'orphaned call holds released');
    },
    (error) => services.log.error({ err: error }, 'orphaned hold sweep failed'),
  );
  services.onShutdown(() => stop());
}
