import type { Config } from '../../../shared/config.js';
import { findNetwork } from '../../../shared/x402/networks.js';

export interface SupportedPayments {
  prepaidWallet: { enabled: boolean; currency: string };
  card: { enabled: boolean; provider: string; maxDepositUsd: string };
  x402: { enabled: boolean; versions: number[]; schemes: { scheme: string; network: string; networkId: string | null; asset: string | null; assetSymbol: string }[] };
}

/** GET /payments/supported: the options the platform accepts with the current configuration. */
export function supportedPayments(config: Config): SupportedPayments {
  const network = findNetwork(config.x402.network);
  // Payments are verified against the network's own USDC contract and EIP-712 domain.
  const asset = network?.asset ?? null;
  return {
    prepaidWallet: { enabled: true, currency: 'USD' },
    card: { enabled: Boolean(config.stripe.secretKey), provider: 'stripe', maxDepositUsd: '100.00' },
    x402: {
      enabled: asset !== null,
      versions: [1, 2],
      schemes: asset === null ? [] : [{ scheme: 'exact', network: network?.name ?? config.x402.network, networkId: network?.caip2 ?? null, asset, assetSymbol: 'USDC' }],
    },
  };
}
