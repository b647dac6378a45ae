import { getAddress } from 'ethers';

/** EVM networks we accept x402 "exact" payments on, with their USDC contract (EIP-3009) and EIP-712 domain. */
export interface X402Network {
  /** CAIP-2 id (x402 version 2). */
  caip2: string;
  /** Network name (x402 version 1). */
  name: string;
  chainId: number;
  /** USDC: 6 decimals, so one atomic unit is one micro-dollar. */
  asset: string;
  eip712: { name: string; version: string };
  /** Test money: the only place a payment may be accepted on its signature alone (X402_SETTLEMENT=verify-only). */
  testnet: boolean;
}

export const X402_NETWORKS: X402Network[] = [
  {
    caip2: 'eip155:84532',
    name: 'base-sepolia',
    chainId: 84532,
    asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    eip712: { name: 'USDC', version: '2' },
    testnet: true,
  },
  {
    caip2: 'eip155:8453',
    name: 'base',
    chainId: 8453,
    asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    eip712: { name: 'USD Coin', version: '2' },
    testnet: false,
  },
];

/** Finds a network by its CAIP-2 id or its v1 name. */
export function findNetwork(id: string | null | undefined): X402Network | undefined {
  return X402_NETWORKS.find((network) => network.caip2 === id || network.name === id);
}

/** Two EVM addresses are the same account whatever their letter case (the mixed case is only a checksum). */
export function sameAddress(a: string, b: string | null | undefined): boolean {
  return b !== null && b !== undefined && a.toLowerCase() === b.toLowerCase();
}

/**
 * An EVM address as wallets sign for it (EIP-55 checksummed), or null when it is none: not 0x and
 * 40 hex digits, or mixed case with a wrong checksum (most likely a typo; every wallet refuses it).
 */
export function checksummedAddress(value: string): string | null {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return null;
  try {
    return getAddress(value);
  } catch {
    return null;
  }
}
