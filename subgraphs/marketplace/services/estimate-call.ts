import type { RequestContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors.js';
import { HTTP_METHODS } from '../entities/constants.js';
import type { EstimateInput } from '../types/inputs.js';
import { formatMicros } from './decimal.js';
import { checkedCallPath } from '../proxy/call-path.js';
import { priceCallOn } from '../proxy/call-target.js';
import { publisherForCall } from './load-publisher-for-call.js';
import { toolCallName } from './reserved-paths.js';
import { oneOf } from './validate.js';

export interface Estimate {
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
  const { pricing, price } = priceCallOn(loaded, { method, path, rows: input.rows ?? 0, viaTools: toolCall });
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
  };
}
