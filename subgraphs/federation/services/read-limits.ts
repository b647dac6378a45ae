import { spendOrRefuse } from '../../../shared/rate-limit.js';
import type { RequestContext } from '../../../shared/context.js';

/**
 * Stats and chain verification read whole tables or chains and need no credential: each caller
 * (an identity, else an address) gets this many a minute.
 */
const HEAVY_READS_PER_MINUTE = 120;

export async function limitHeavyRead(context: RequestContext, name: string): Promise<void> {
  const subject = context.identity?.userId ?? context.ip;
  await spendOrRefuse(context.services.rateLimiter, `federation_${name}:${subject}`, HEAVY_READS_PER_MINUTE, 60);
}
