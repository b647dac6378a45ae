import { randomBytes } from 'node:crypto';
import type { TestPlatform } from './platform.js';

export const uniqueSlug = (label = 'pub') => `${label}-${randomBytes(4).toString('hex')}`;

/** A complete, valid integration publisher body (snake_case, as a REST client sends it). */
export function publisherBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Quote Stream',
    slug: uniqueSlug('quotes'),
    description: 'Real-time and historical stock market quotes',
    resource_name: 'Equities API',
    resource_description: 'Prices for listed equities',
    categories: ['finance', 'market data'],
    capabilities: ['stock quotes', 'ohlc candles'],
    use_cases: ['portfolio valuation'],
    usage_examples: [{ title: 'Quote', description: 'Latest AAPL quote', curl: 'curl /publishers/x/v1/quotes/AAPL' }],
    publisher_category: 'integration',
    integration_type: 'api',
    billing_model: 'prepaid_credits',
    gateway_fee_percent: '2.5',
    wallet_address: '0x1111111111111111111111111111111111111111',
    wallet_network_id: 'eip155:84532',
    api_url: 'https://api.quotes.example/',
    api_key_header: 'X-Api-Key',
    upstream_api_key: 'sk_upstream_secret_123',
    endpoints: [
      { method: 'GET', path: '/v1/quotes/{symbol}', description: 'Latest quote', price: '0.002',
        query_params: [{ name: 'fields', description: 'Fields', required: false, param_type: 'string', example: 'bid,ask' }] },
      { method: 'GET', path: '/v1/markets', description: 'Markets', access: 'public_anonymous' },
      { method: 'POST', path: '/v1/batch', description: 'Batch quotes' },
    ],
    pricing: [{ pricing_model: 'per_request', price_per_call: '0.001', price_per_post: '0.01', min_charge: '0.0005', markup_multiplier: '1.2' }],
    ...overrides,
  };
}

export async function createPublisher(t: Pick<TestPlatform, 'api'>, token: string, overrides: Record<string, unknown> = {}) {
  const response = await t.api.post('/publishers', publisherBody(overrides), { token });
  if (response.status !== 201) throw new Error(`create publisher failed: ${JSON.stringify(response.body)}`);
  return response.body.data as Record<string, any>;
}
