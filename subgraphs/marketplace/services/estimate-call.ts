import type { RequestContext } from '../../../shared/context.js';
import { badRequest, unauthorized } from '../../../shared/errors.js';
import { HTTP_METHODS } from '../entities/constants.js';
import type { EstimateInput } from '../types/inputs.js';
import { formatMicros } from './decimal.js';
import { checkedCallPath } from '../proxy/call-path.js';
import { priceCallOn } from '../proxy/call-target.js';
import { publisherForCall, type PublisherForCall } from './load-publisher-for-call.js';
import { databaseLocationOf } from './database-location.js';
import { pricingOf } from './pricing-of.js';
import { priceRows, publishedLimits } from '../proxy/database-calls.js';
import { toolCallName } from './reserved-paths.js';
import { oneOf } from './validate.js';

export interface Estimate {
  estimatedRows?: number;
  basis?: string;
  estimatedCost: string;
  currency: string;
  breakdown: { base: string; markup: string; gatewayFee: string; minimumApplied: boolean };
  pricingModel: string;
}

/** The proxy also takes HEAD (priced as the GET of its path). */
const ESTIMABLE_METHODS = [...HTTP_METHODS, 'HEAD'] as const;

/**
 * POST /publishers/{slug}/estimate: what a call would cost, decided as the proxy decides it, on
 * the same view of the publisher (cached per process): the path is vetted, and the endpoint and
 * price are decided by the proxy's own priceCallOn (a path the call could not take is refused).
 */
export async function estimateCall(context: RequestContext, slug: string, input: EstimateInput): Promise<Estimate> {
  const loaded = await publisherForCall(context.services, context.em, slug);
  const { publisher } = loaded;
  if (input.publisherId != null && input.publisherId !== publisher.id) throw badRequest('publisher_mismatch', 'publisher_id does not match the publisher of this path');
  if (input.rows != null && (!Number.isInteger(input.rows) || input.rows < 0)) throw badRequest('invalid_rows', 'rows must be 0 or more');
  const method = oneOf((input.method ?? (publisher.publisherCategory === 'database' ? 'POST' : 'GET')).toUpperCase(), ESTIMABLE_METHODS, 'method');
  // As the data plane routes it: a tool call names a tool, not a path; any other call without a
  // path is the root resource.
  const toolCall = Boolean(publisher.mcpEndpoint) && toolCallName(method, input.path ?? '') !== null;
  const path = toolCall ? '' : checkedCallPath(input.path || '/');
  const planned = await plannedRows(context, loaded, method, path, input.query);
  const { pricing, price } = planned === null ? priceCallOn(loaded, { method, path, rows: input.rows ?? 0, viaTools: toolCall }) : planned;
  return {
    estimatedCost: formatMicros(price.total),
    currency: pricing.assetSymbol ?? 'USD',
    breakdown: {
      base: formatMicros(price.base),
      markup: formatMicros(price.markup),
      gatewayFee: formatMicros(price.fee),
      minimumApplied: price.minimumApplied,
    },
    pricingModel: pricing.pricingModel,
    ...(planned ? { estimatedRows: planned.rows, basis: 'planner_estimate' } : {}),
  };
}

/**
 * A database publisher's query is priced on the planner's row estimate (EXPLAIN, nothing run),
 * within the rows a query may return; a query it would refuse is refused here too.
 */
async function plannedRows(context: RequestContext, loaded: PublisherForCall, method: string, path: string, query: string | null | undefined) {
  const estimate = context.services.ports.estimatePublishedQuery;
  const location = loaded.publisher.publisherCategory === 'database' ? databaseLocationOf(loaded.publisher) : null;
  if (!query || !estimate || !location || method !== 'POST' || path !== '/') return null;
  if (!context.identity) throw unauthorized('Estimating a query runs the planner: call it with an API key or access token');
  const rows = Math.min(await estimate(context.em, location, query), publishedLimits(context.services, loaded.publisher).maxRows);
  return { rows, pricing: pricingOf(loaded.pricing), price: priceRows(loaded, rows) };
}
