import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlatformServices } from '../services.js';
import { ChainChecker } from './chain-check.js';
import { resolveUnknownPaymentsOnChain } from './chain-resolve.js';
import { findNetwork } from './networks.js';
import { bookUnbookedPayments } from './reconcile.js';

const SWEEP_EVERY_MS = 60_000;

/** A checker per network that has a JSON-RPC node configured (X402_RPC_URLS). */
export function chainCheckers(config: PlatformServices['config']): ChainChecker[] {
  return Object.entries(config.x402.rpcUrls).map(([network, url]) => new ChainChecker(url, findNetwork(network)!));
}

/**
 * Every minute: books settled payments whose booking failed, then asks the chain about payments
 * the facilitator left unanswered, where a node is configured. Runs where the marketplace runs: a
 * call payment's late revenue is counted by the marketplace's handler of `x402.booked_late`, which
 * must be in the process that books it. It books deposits too.
 */
export function startPaymentSweeper(services: PlatformServices): void {
  const checkers = chainCheckers(services.config);
  const sweep = async () => {
    const em = services.orm.em.fork() as EntityManager;
    const { booked } = await bookUnbookedPayments(em, services);
    if (booked > 0) services.log.warn({ booked }, 'x402 payments booked late');
    for (const checker of checkers) {
      const found = await resolveUnknownPaymentsOnChain(em, checker, services);
      if (found.paid + found.failed > 0) services.log.warn({ network: checker.network.caip2, ...found }, 'x402 payments resolved on-chain');
    }
  };
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    // A sweep slower than a minute (a slow node) is not run twice at once.
    running ??= sweep()
      .catch((error) => services.log.error({ err: error }, 'x402 payment sweep failed'))
      .finally(() => (running = null));
  }, SWEEP_EVERY_MS);
  timer.unref();
  services.onShutdown(async () => {
    clearInterval(timer);
    await running;
    for (const checker of checkers) checker.close();
  });
}
