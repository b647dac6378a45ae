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
}

export const X402_NETWORKS: X402Network[] = [
  {
    caip2: 'eip155:84532',
    name: 'base-sepolia',
    chainId: 84532,
    asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    eip712: { name: 'USDC', version: '2' },
  },
  {
    caip2: 'eip155:8453',
    name: 'base',
    chainId: 8453,
    asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    eip712: { name: 'USD Coin', version: '2' },
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
