import { Contract, FetchRequest, getAddress, JsonRpcProvider, Network, type EventLog, type Log } from 'ethers';
import type { X402Network } from './networks.js';

const TOKEN_ABI = [
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
];

/** Base makes a block every 2 s: about 5.5 hours. Public nodes refuse log queries over much longer ranges. */
const LOOKBACK_BLOCKS = 10_000;
/** Only blocks this deep count (about 24 s on Base): a reorganised tip cannot book or fail a payment. */
const CONFIRMATIONS = 12;
const RPC_TIMEOUT_MS = 10_000;

/** An EIP-3009 authorization as recorded when it was accepted. */
export interface AuthorizationLookup {
  payer: string;
  nonce: string;
  payTo: string;
  amount: bigint;
}

/**
 * What the chain says about an authorization:
 * - `paid`: it executed, and its transaction moved `amount` from the payer to `payTo`.
 * - `unused`: its nonce was not used as of a block made at `asOf`.
 * - `unclear`: its nonce was used, but no transaction within reach shows it paying `payTo`: the
 *   payer may have cancelled it, or spent the nonce on another authorization they signed; or the
 *   transaction is older than the logs this node will search. A person must look.
 */
export type ChainFinding = { state: 'paid'; transaction: string } | { state: 'unused'; asOf: Date } | { state: 'unclear' };

/**
 * Reads the x402 token contract (USDC, EIP-3009) through a JSON-RPC node (X402_RPC_URL), so that
 * payments the facilitator left unanswered are resolved without a person. A used nonce alone is
 * not proof of payment (cancelling an authorization, or using its nonce for another, uses it too),
 * so `paid` needs the transfer itself in the transaction that used it.
 */
export class ChainChecker {
  private readonly provider: JsonRpcProvider;
  private readonly token: Contract;

  constructor(
    rpcUrl: string,
    readonly network: X402Network,
  ) {
    const request = new FetchRequest(rpcUrl);
    request.timeout = RPC_TIMEOUT_MS;
    const chain = Network.from(network.chainId);
    this.provider = new JsonRpcProvider(request, chain, { staticNetwork: chain, batchMaxCount: 1, cacheTimeout: -1 });
    this.token = new Contract(network.asset, TOKEN_ABI, this.provider);
  }

  async find(lookup: AuthorizationLookup): Promise<ChainFinding> {
    const latest = await this.provider.getBlockNumber();
    const block = await this.provider.getBlock(Math.max(0, latest - CONFIRMATIONS));
    if (!block) throw new Error('the node returned no block');
    const used: boolean = await this.token.getFunction('authorizationState').staticCall(lookup.payer, lookup.nonce, { blockTag: block.number });
    if (!used) return { state: 'unused', asOf: new Date(block.timestamp * 1000) };
    const filter = this.token.filters.AuthorizationUsed!(lookup.payer, lookup.nonce);
    const uses = await this.token.queryFilter(filter, Math.max(0, block.number - LOOKBACK_BLOCKS), block.number);
    for (const use of uses) {
      if (await this.paidIn(use, lookup)) return { state: 'paid', transaction: use.transactionHash.toLowerCase() };
    }
    return { state: 'unclear' };
  }

  /**
   * The token marks an authorization used, then makes its transfer (FiatToken's
   * _transferWithAuthorization): the log right after the use must be that transfer, so a
   * transaction that used the nonce and paid us for something else does not count.
   */
  private async paidIn(use: EventLog | Log, lookup: AuthorizationLookup): Promise<boolean> {
    const receipt = await this.provider.getTransactionReceipt(use.transactionHash);
    if (!receipt || receipt.status !== 1) return false;
    const next = receipt.logs.find((log) => log.index === use.index + 1);
    if (!next || getAddress(next.address) !== getAddress(this.network.asset)) return false;
    const transfer = this.token.interface.parseLog(next);
    if (transfer?.name !== 'Transfer') return false;
    const [from, to, value] = transfer.args as unknown as [string, string, bigint];
    return getAddress(from) === getAddress(lookup.payer) && getAddress(to) === getAddress(lookup.payTo) && value === lookup.amount;
  }

  close(): void {
    this.provider.destroy();
  }
}
