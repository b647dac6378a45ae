import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlatformServices } from '../../shared/services.js';
import { everyMinute } from '../../shared/timing.js';

/** Authorization states an hour past their expiry are useless (an expired one is refused all the same): deleted. */
export async function deleteStaleAuthorizationStates(em: EntityManager): Promise<void> {
  await em.execute(`delete from oauth_authorization_state where expires_at < now() - interval '1 hour'`);
}

/** Once a minute: stale authorization states deleted. */
export function startOAuthSweeps(services: PlatformServices): void {
  const stop = everyMinute(
    () => deleteStaleAuthorizationStates(services.orm.em.fork() as EntityManager),
    (error) => services.log.error({ err: error }, 'oauth state sweep failed'),
  );
  services.onShutdown(() => stop());
}
