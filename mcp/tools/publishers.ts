import { isUuid } from '../../shared/ids.js';
import type { ToolContext } from '../tool.js';

const PRICING = `pricingModel pricePerCall pricePerGet pricePerPost base_price_per_1000_rows: basePricePer1000Rows minCharge
  markupMultiplier reserveMaxCharge pricingDisplayText`;

/** What an agent needs to choose a publisher: short, so a page of them stays small. */
export const PUBLISHER_SUMMARY = `{ id slug name description publisherCategory databaseType billingModel isVerified categories capabilities
  pricing { pricingModel pricePerCall minCharge pricingDisplayText } }`;

/** What an agent needs to call one: its endpoints, prices and examples. */
export const PUBLISHER_DETAIL = `{ id slug name description resourceName resourceDescription publisherCategory databaseType integrationType
  computeType billingModel gatewayFeePercent isVerified categories capabilities useCases usageExamples { title description curl }
  undocumentedEndpointPolicy requiresUserOauth mcpEndpoint totalQueries
  endpoints { method path description price access isProtected queryParams { name description required paramType example } }
  pricing { ${PRICING} } }`;

export interface PublisherRef {
  id: string;
  slug: string;
  name: string;
  publisher_category: string;
  billing_model: string;
}

/** A publisher named by slug or by id (uuid), as the caller may see it. */
export function findPublisher<T = PublisherRef>(context: ToolContext, ref: string, selection = '{ id slug name publisherCategory billingModel }'): Promise<T> {
  return isUuid(ref)
    ? context.platform.run<T>(`query($id: ID!) { publisherById(id: $id) ${selection} }`, { id: ref })
    : context.platform.run<T>(`query($slug: String!) { publisher(slug: $slug) ${selection} }`, { slug: ref });
}
