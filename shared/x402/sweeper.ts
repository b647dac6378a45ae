import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlatformServices } from '../services.js';
import { everyMinute } from '../timing.js';
import { ChainChecker } from './chain-check.js';
import { resolveUnknownPaymentsOnChain } from './chain-resolve.js';
import { findNetwork } from './networks.js';
import { bookUnbookedPayments } from './reconcile.js';

/** A stop waits this long for a chain check between two payments (one node request can take 10 s). */
const CHAIN_SWEEP_STOP_WAIT_MS = 12_000;

/** A checker per network that has a JSON-RPC node configured (X402_RPC_URLS). */
export function chainCheckers(config: PlatformServices['config']): ChainChecker[] {
  return Object.entries(config.x402.rpcUrls).map(([network, url]) => new ChainChecker(url, findNetwork(network)!));
}

/**
 * Every minute: books settled payments whose booking failed; and, on its own schedule so a slow
 * node never holds up booking, asks the chain about payments the facilitator left unanswered,
 * where a node is configured. Runs where the marketplace runs: a call payment's late revenue is
 * counted by the marketplace's handler of `x402.booked_late`, which must be in the process that
 * books it. It books deposits too.
 */
export function startPaymentSweeper(services: PlatformServices): void {
  const fork = () => services.orm.em.fork() as EntityManager;
  const stopBooking = everyMinute(
    async () => {
      const { booked } = await bookUnbookedPayments(fork(), services);
      if (booked > 0) services.log.warn({ booked }, 'x402 payments booked late');
    },
    (error) => services.log.error({ err: error }, 'x402 booking sweep failed'),
  );
  const checkers = chainCheckers(services.config);
  let stopping = false;
  const stopChecking =
    checkers.length === 0
      ? null
      : everyMinute(
          async () => {
            for (const checker of checkers) {
              const found = await resolveUnknownPaymentsOnChain(fork(), checker, services, { stopping: () => stopping });
              if (found.paid + found.failed > 0) services.log.warn({ network: checker.network.caip2, ...found }, 'x402 payments resolved on-chain');
            }
          },
          (error) => services.log.error({ err: error }, 'x402 chain check failed'),
        );
  services.onShutdown(async () => {
    stopping = true;
    await Promise.all([stopBooking(), stopChecking?.(CHAIN_SWEEP_STOP_WAIT_MS)]);
    for (const checker of checkers) checker.close();
  });
}
