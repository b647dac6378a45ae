import type { EntityManager } from '@mikro-orm/postgresql';
import { bookUnbookedPayments, listUnsettledPayments, resolveUnknownPayment, type Bookkeeper, type UnknownOutcome } from '../shared/x402/index.js';
import { runCli } from './cli.js';

const USAGE = `npm run x402:payments -- [command]
  list                                        on-chain payments not yet in the ledger (the default)
  book                                        book every settled_unbooked payment now
  settled <network> <payer> <nonce> <tx>      a settle_unknown payment was found on-chain in transaction <tx>
  failed <network> <payer> <nonce>            a settle_unknown payment never went on-chain (its authorization expired unused)`;

/**
 * `npm run x402:payments`: the operator's side of on-chain payments the platform could not finish
 * booking. settled_unbooked ones are booked by a sweep every minute anyway; settle_unknown ones
 * need someone to look the authorization up on-chain (the token's authorizationState) and say.
 */
async function run(em: EntityManager, args: string[], bookkeeper: Bookkeeper): Promise<number> {
  const [command = 'list', network, payer, nonce, transaction] = args;
  if (command === 'list') {
    console.log(JSON.stringify(await listUnsettledPayments(em), null, 2));
    return 0;
  }
  if (command === 'book') {
    const outcome = await bookUnbookedPayments(em, bookkeeper);
    console.log(JSON.stringify(outcome));
    return outcome.failed > 0 ? 1 : 0;
  }
  const outcome: UnknownOutcome | null =
    command === 'settled' && transaction ? { settled: true, transaction } : command === 'failed' && nonce ? { settled: false } : null;
  if (!outcome || !network || !payer || !nonce) {
    console.error(USAGE);
    return 2;
  }
  const result = await resolveUnknownPayment(em, { network, payer, nonce }, outcome, bookkeeper);
  console.log(JSON.stringify({ result }));
  return result === 'not_found' ? 1 : 0;
}

await runCli((services) => run(services.orm.em.fork() as EntityManager, process.argv.slice(2), services), { logLevel: 'warn' });
