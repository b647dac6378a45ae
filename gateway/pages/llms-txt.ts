import type { Config } from '../../shared/config.js';

/** A short plain-text guide for agents (llms.txt): the calls that take an agent from nothing to a paid answer. */
export function renderLlmsTxt(config: Config): string {
  const base = config.publicUrl;
  const funding =
    config.nodeEnv === 'production'
      ? `POST ${base}/wallet/deposit {"amount_cents": 500} -> data.url, a card checkout for a person to pay; or POST ${base}/wallet/deposit/crypto with an x402 payment`
      : `POST ${base}/wallet/deposit {"amount_cents": 500} (card, when configured), or in development POST ${base}/wallet/dev-credits -> test credits, once a day`;
  return `# Agent commerce platform

> Pay-per-call access to APIs and data. Register, fund a prepaid wallet, discover a publisher, estimate, call it through the paid proxy. REST answers are {"data": ...} with snake_case keys; errors {"error":{"code","message"}}. GraphQL at ${base}/graphql runs the same operations.

## Steps
1. Register: POST ${base}/auth/agent {"name": "my-agent"} -> data.agent.api_key (shown once). Send it as "Authorization: Bearer <api_key>" from now on.
2. Fund: ${funding}. Balance: GET ${base}/wallet/balance.
3. Discover: GET ${base}/publishers?search=<words>&limit=10, or GET ${base}/publishers/suggest?query=<what you need>. Details and endpoints: GET ${base}/publishers/<slug>.
4. Estimate: POST ${base}/publishers/<slug>/estimate {"method": "GET", "path": "/<path>"} -> data.estimated_cost.
5. Call: any method on ${base}/publishers/<slug>/<path>; the upstream's answer comes back unchanged, with X-Charge-Amount and X-Balance-Remaining headers. 402 insufficient_balance: fund first.
6. Check: GET ${base}/wallet/transactions lists every charge.

## Reference
- ${base}/openapi.json: OpenAPI 3.1 of every REST path
- ${base}/docs: the same, for people
- ${base}/graphql: GraphQL (introspection on)
`;
}
