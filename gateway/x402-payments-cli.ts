import type { EntityManager } from '@mikro-orm/postgresql';
import {
  bookAllUnbookedPayments,
  chainCheckers,
  listUnsettledPayments,
  resolveUnknownPayment,
  resolveUnknownPaymentsOnChain,
  type Bookkeeper,
  type UnknownOutcome,
} from '../shared/x402/index.js';
import { runCli } from './cli.js';

const USAGE = `npm run x402:payments -- [command]
  list                                        on-chain payments not yet in the ledger (the default)
  book                                        book every settled_unbooked payment now
  check                                       ask the chain about settle_unknown payments (and those a crash left verified)
                                              now, up to 100 per network of X402_RPC_URLS (least recently asked first), as the minutely sweep does
  settled <network> <payer> <nonce> <tx>      a settle_unknown payment (or one a crash left verified, 15 minutes or longer)
                                              was found on-chain in transaction <tx>
  failed <network> <payer> <nonce>            a settle_unknown payment never went on-chain: refused (not_expired) until
                                              5 minutes after its authorization's validBefore, since it may still execute
                                              (recorded before validBefore was kept: a day after it was recorded)
Exit codes: 0 done, 1 not done (not_found, no_plan, not_expired, booking_pending, a booking that failed;
for check: no node configured, a node that did not answer, or payments a person must resolve), 2 usage.`;

const TRANSACTION_HASH = /^0x[0-9a-fA-F]{64}$/;

/** The outcome an operator states, or null when the words do not make one (a typo must never become a ledger reference). */
function statedOutcome(command: string, rest: string[]): UnknownOutcome | null {
  if (command === 'settled' && rest.length === 4 && TRANSACTION_HASH.test(rest[3]!)) return { settled: true, transaction: rest[3]!.toLowerCase() };
  if (command === 'failed' && rest.length === 3) return { settled: false };
  return null;
}

/**
 * `npm run x402:payments`: the operator's side of on-chain payments the platform could not finish
 * booking. settled_unbooked ones are booked by a sweep every minute anyway; settle_unknown ones
 * are resolved by the same sweep where X402_RPC_URLS names a node for their network, and otherwise
 * need someone to look the authorization up on-chain and say.
 */
async function run(em: EntityManager, args: string[], bookkeeper: Bookkeeper): Promise<number> {
  const [command = 'list', ...rest] = args;
  if (command === 'list' && rest.length === 0) {
    console.log(JSON.stringify(await listUnsettledPayments(em, bookkeeper.config), null, 2));
    return 0;
  }
  if (command === 'book' && rest.length === 0) {
    const outcome = await bookAllUnbookedPayments(em, bookkeeper);
    console.log(JSON.stringify(outcome));
    return outcome.failed > 0 ? 1 : 0;
  }
  if (command === 'check' && rest.length === 0) return checkOnChain(em, bookkeeper);
  const outcome = statedOutcome(command, rest);
  if (!outcome) {
    console.error(USAGE);
    return 2;
  }
  const [network, payer, nonce] = rest as [string, string, string];
  const result = await resolveUnknownPayment(em, { network, payer, nonce }, outcome, bookkeeper);
  console.log(JSON.stringify({ result }));
  return result === 'booked' || result === 'failed' ? 0 : 1;
}

async function checkOnChain(em: EntityManager, bookkeeper: Bookkeeper): Promise<number> {
  const checkers = chainCheckers(bookkeeper.config);
  if (checkers.length === 0) {
    console.error('No JSON-RPC node is configured: set X402_RPC_URLS (<network>=<url>, comma-separated)');
    return 1;
  }
  let settledAll = true;
  try {
    for (const checker of checkers) {
      const found = await resolveUnknownPaymentsOnChain(em, checker, bookkeeper, { takeClaimed: true });
      console.log(JSON.stringify({ network: checker.network.caip2, ...found }));
      settledAll &&= found.errors === 0 && found.unclear === 0;
    }
  } finally {
    for (const checker of checkers) checker.close();
  }
  return settledAll ? 0 : 1;
}

await runCli((services) => run(services.orm.em.fork() as EntityManager, process.argv.slice(2), services), { logLevel: 'warn' });
