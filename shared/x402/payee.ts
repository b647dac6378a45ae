import { AppError } from '../errors.js';
import { findNetwork, sameAddress, type X402Network } from './networks.js';

export interface Payee {
  payTo: string;
  network: X402Network;
  /** Whether the money reaches the platform's own X402_PAY_TO, which decides the account it is booked from. */
  paidToPlatform: boolean;
}

/**
 * Who an on-chain payment goes to: the publisher's own wallet on its network when it has one,
 * else the platform's X402_PAY_TO on X402_NETWORK (503 when that is not set up).
 */
export function payeeOf(
  platform: { payTo?: string; network: string },
  publisher: { walletAddress?: string | null; walletNetworkId?: string | null } | null,
): Payee {
  const own = findNetwork(publisher?.walletNetworkId);
  if (publisher?.walletAddress && own) return { payTo: publisher.walletAddress, network: own, paidToPlatform: sameAddress(publisher.walletAddress, platform.payTo) };
  const fallback = findNetwork(platform.network);
  if (!platform.payTo || !fallback) throw new AppError(503, 'onchain_payments_unavailable', 'On-chain payments are not configured');
  return { payTo: platform.payTo, network: fallback, paidToPlatform: true };
}
