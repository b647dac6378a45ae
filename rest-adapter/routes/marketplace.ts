import { bodyObject, booleanQuery, pageQuery, stringQuery, type RestRequest, type RestRoute } from '../route.js';

/** `base_price_per_1000_rows` is not the snake_case of any GraphQL name; map it by hand. */
function publisherBody(request: RestRequest): Record<string, unknown> {
  const body = bodyObject(request);
  if (!Array.isArray(body.pricing)) return body;
  const pricing = body.pricing.map((row: unknown) => {
    if (!row || typeof row !== 'object' || !('base_price_per_1000_rows' in row)) return row;
    const { base_price_per_1000_rows: value, ...rest } = row as Record<string, unknown>;
    return { ...rest, basePricePer1000Rows: value };
  });
  return { ...body, pricing };
}

const slug = (request: RestRequest) => request.params.slug;

/** "Publishers and the paid proxy" (except the proxy itself), plus publisher management. */
export const marketplaceRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/publishers',
    auth: 'optional',
    publicCache: 'publisher',
    document: 'query($input: PublisherListInput) { publishers(input: $input) { ...PublisherFields } }',
    variables: (request) => ({
      input: {
        search: stringQuery(request, 'search'),
        category: stringQuery(request, 'category'),
        isVerified: booleanQuery(request, 'is_verified'),
        ...pageQuery(request),
      },
    }),
  },
  {
    method: 'GET',
    path: '/publishers/suggest',
    auth: 'optional',
    publicCache: 'publisher',
    document: 'query($query: String) { suggestPublishers(query: $query) { score matchReason publisher { ...PublisherFields } } }',
    variables: (request) => ({ query: stringQuery(request, 'query') }),
    data: (items: { publisher: Record<string, unknown>; score: number; match_reason: string }[]) =>
      items.map(({ publisher, ...rest }) => ({ ...publisher, ...rest })),
  },
  {
    method: 'POST',
    path: '/publishers',
    status: 201,
    document: 'mutation($input: PublisherInput!) { createPublisher(input: $input) { ...PublisherFields } }',
    variables: (request) => ({ input: publisherBody(request) }),
  },
  {
    method: 'GET',
    path: '/publishers/:slug',
    auth: 'optional',
    document: 'query($slug: String!) { publisher(slug: $slug) { ...PublisherFields } }',
    variables: (request) => ({ slug: slug(request) }),
  },
  {
    method: 'PATCH',
    path: '/publishers/:slug',
    document: 'mutation($slug: String!, $input: PublisherInput!) { updatePublisher(slug: $slug, input: $input) { ...PublisherFields } }',
    variables: (request) => ({ slug: slug(request), input: publisherBody(request) }),
  },
  {
    method: 'DELETE',
    path: '/publishers/:slug',
    document: 'mutation($slug: String!) { deactivatePublisher(slug: $slug) { ...PublisherFields } }',
    variables: (request) => ({ slug: slug(request) }),
  },
  {
    method: 'POST',
    path: '/publishers/:slug/estimate',
    auth: 'optional',
    document: `query($slug: String!, $input: EstimateInput!) { estimatePublisherCall(slug: $slug, input: $input) {
      estimatedCost currency breakdown { base markup gatewayFee minimumApplied } pricingModel maxCost estimatedRows basis } }`,
    variables: (request) => ({ slug: slug(request), input: bodyObject(request) }),
    // Only a database query's estimate says how many rows it priced, and on what.
    data: ({ estimated_rows, basis, ...estimate }) => (basis ? { ...estimate, estimated_rows, basis } : estimate),
  },
  {
    method: 'GET',
    path: '/payments/supported',
    auth: 'optional',
    document: `query { supportedPayments { prepaidWallet { enabled currency } card { enabled provider maxDepositUsd }
      x402 { enabled versions schemes { scheme network networkId asset assetSymbol } } } }`,
  },
];
