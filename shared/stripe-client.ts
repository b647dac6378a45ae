import Stripe from 'stripe';
import type { Config } from './config.js';

const clients = new Map<string, Stripe>();

/** The real Stripe SDK; STRIPE_API_URL points it at another host (tests use a local Stripe-compatible server). Null when not configured. */
export function stripeClient(config: Config): Stripe | null {
  const { secretKey, apiUrl } = config.stripe;
  if (!secretKey) return null;
  const cacheKey = `${secretKey}|${apiUrl ?? ''}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const url = apiUrl ? new URL(apiUrl) : undefined;
    client = new Stripe(secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(url
        ? { host: url.hostname, port: url.port || (url.protocol === 'http:' ? 80 : 443), protocol: url.protocol === 'http:' ? 'http' : 'https' }
        : {}),
    });
    clients.set(cacheKey, client);
  }
  return client;
}
