import type { PlatformServices } from '../../shared/services.js';
import { everyMinute } from '../../shared/timing.js';
import { suspendIdleEndpoints } from './services/idle-sweep.js';
import { recordDatabaseUsage } from './services/record-usage.js';

/** Once a minute: idle endpoints suspended, finished hours of usage recorded. */
export function startDatabaseSweeps(services: PlatformServices): void {
  const stop = everyMinute(
    async () => {
      const suspended = await suspendIdleEndpoints(services);
      if (suspended > 0) services.log.info({ suspended }, 'idle endpoints suspended');
      await recordDatabaseUsage(services);
    },
    (error) => services.log.error({ err: error }, 'database sweep failed'),
  );
  services.onShutdown(() => stop());
}
