import { badRequest } from '../../../shared/errors.js';
import type { PublisherEndpoint } from '../entities/endpoint.js';

/**
 * An anonymous caller of a priced public_anonymous endpoint can pay only on-chain, per request: a
 * publisher that prices one must bill x402_per_request, or no one without an account could call it.
 */
export function assertPublicPricesPayable(billingModel: string, endpoints: readonly Pick<PublisherEndpoint, 'method' | 'path' | 'access' | 'price'>[]): void {
  if (billingModel === 'x402_per_request') return;
  const index = endpoints.findIndex((endpoint) => endpoint.access === 'public_anonymous' && (endpoint.price ?? 0n) > 0n);
  if (index < 0) return;
  const { method, path } = endpoints[index]!;
  throw badRequest(
    'public_endpoint_not_payable',
    `endpoints[${index}] (${method} ${path}) is public_anonymous and priced: anonymous callers can pay it only on-chain, so billing_model must be x402_per_request (or the endpoint free or authenticated)`,
  );
}
