import { spendOrRefuse } from '../../../shared/rate-limit.js';
import type { RequestContext } from '../../../shared/context.js';

/**
 * Listing and searching need no credential and cost real work when not cached: each address may
 * make CATALOGUE_READS_PER_MINUTE of them, so one anonymous client cannot keep a core busy.
 */
export async function limitCatalogueReads(context: RequestContext): Promise<void> {
  const limit = context.services.config.catalogueReadsPerMinute;
  await spendOrRefuse(context.services.rateLimiter, `catalogue:${context.ip}`, limit, 60);
}
