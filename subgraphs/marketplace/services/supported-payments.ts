import type { Config } from '../../../shared/config.js';

/** USDC per x402 network (v1 names) with its CAIP-2 id. */
const X402_NETWORKS: Record<string, { caip2: string; usdc: string }> = {
  base: { caip2: 'eip155:8453', usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
  'base-sepolia': { caip2: 'eip155:84532', usdc: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' },
  polygon: { caip2: 'eip155:137', usdc: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359' },
  'polygon-amoy': { caip2: 'eip155:80002', usdc: '0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582' },
  'avalanche-fuji': { caip2: 'eip155:43113', usdc: '0x5425890298aed601595a70AB815c96711a31Bc65' },
};

export interface SupportedPayments {
  prepaidWallet: { enabled: boolean; currency: string };
  card: { enabled: boolean; provider: string; maxDepositUsd: string };
  x402: { enabled: boolean; versions: number[]; schemes: { scheme: string; network: string; networkId: string | null; asset: string | null; assetSymbol: string }[] };
}

/** GET /payments/supported: the options the platform accepts with the current configuration. */
export function supportedPayments(config: Config): SupportedPayments {
  const [name, network] = Object.entries(X402_NETWORKS).find(([key, entry]) => key === config.x402.network || entry.caip2 === config.x402.network) ?? [config.x402.network, undefined];
  const asset = config.x402.asset ?? network?.usdc ?? null;
  return {
    prepaidWallet: { enabled: true, currency: 'USD' },
    card: { enabled: Boolean(config.stripe.secretKey), provider: 'stripe', maxDepositUsd: '100.00' },
    x402: {
      enabled: asset !== null,
      versions: [1, 2],
      schemes: asset === null ? [] : [{ scheme: 'exact', network: name, networkId: network?.caip2 ?? null, asset, assetSymbol: 'USDC' }],
    },
  };
}
