import type { RequestContext } from '../../../shared/context.js';
import { tooManyRequests } from '../../../shared/errors.js';

/**
 * Listing and searching need no credential and cost real work when not cached: each address may
 * make CATALOGUE_READS_PER_MINUTE of them, so one anonymous client cannot keep a core busy.
 */
export async function limitCatalogueReads(context: RequestContext): Promise<void> {
  const limit = context.services.config.catalogueReadsPerMinute;
  const result = await context.services.rateLimiter.consume(`catalogue:${context.ip}`, limit, 60);
  if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds);
}
