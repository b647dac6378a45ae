import { Contract, FetchRequest, getAddress, JsonRpcProvider, Network, type EventLog, type Log } from 'ethers';
import type { X402Network } from './networks.js';

const TOKEN_ABI = [
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
];

/** Public nodes refuse log queries over more than 10,000 blocks (the range counts both ends). */
const LOG_RANGE_BLOCKS = 10_000;
/** How far back logs are searched, in ranges: about 11 days of Base's 2 s blocks. Older uses are `unclear`. */
const MAX_LOG_RANGES = 48;
/** Only blocks this deep count (about 24 s on Base): a reorganised tip cannot book or fail a payment. */
const CONFIRMATIONS = 12;
const RPC_TIMEOUT_MS = 10_000;

/** The block a check reads the chain at: CONFIRMATIONS below the tip. */
export interface CheckedBlock {
  number: number;
  time: Date;
}

/** An EIP-3009 authorization as recorded when it was accepted. */
export interface AuthorizationLookup {
  payer: string;
  nonce: string;
  payTo: string;
  amount: bigint;
  /** When it was accepted: its use cannot be older (logs are searched back to a little before). */
  acceptedAt: Date;
}

/**
 * What the chain says about an authorization:
 * - `paid`: it executed, and its transaction moved `amount` from the payer to `payTo`.
 * - `unused`: its nonce was not used as of a block made at `asOf`.
 * - `unclear`: its nonce was used, but no transaction shows it paying `payTo`: the payer may have
 *   cancelled it, or spent the nonce on another authorization they signed; or its use is older
 *   than the logs searched (MAX_LOG_RANGES). A person must look.
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

  /** The block checks read at; once per sweep, not per payment. */
  async checkedBlock(): Promise<CheckedBlock> {
    const latest = await this.provider.getBlockNumber();
    return this.blockAt(Math.max(0, latest - CONFIRMATIONS));
  }

  private async blockAt(number: number): Promise<CheckedBlock> {
    const block = await this.provider.getBlock(number);
    if (!block) throw new Error(`the node has no block ${number}`);
    return { number: block.number, time: new Date(block.timestamp * 1000) };
  }

  /** What the chain says at `at` (see ChainFinding). Throws when the node does not answer. */
  async find(lookup: AuthorizationLookup, at: CheckedBlock): Promise<ChainFinding> {
    const used: boolean = await this.token.getFunction('authorizationState').staticCall(lookup.payer, lookup.nonce, { blockTag: at.number });
    if (!used) return { state: 'unused', asOf: at.time };
    const filter = this.token.filters.AuthorizationUsed!(lookup.payer, lookup.nonce);
    // Newest first, back to a little before the payment was accepted (clocks differ).
    const since = lookup.acceptedAt.getTime() - 10 * 60_000;
    for (let to = at.number, ranges = 0; to >= 0 && ranges < MAX_LOG_RANGES; ranges++) {
      const from = Math.max(0, to - LOG_RANGE_BLOCKS + 1);
      for (const use of await this.token.queryFilter(filter, from, to)) {
        if (await this.paidIn(use, lookup)) return { state: 'paid', transaction: use.transactionHash.toLowerCase() };
      }
      if (from === 0 || (await this.blockAt(from)).time.getTime() < since) break;
      to = from - 1;
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
    // A node that has the log but not yet its receipt is behind: ask again later.
    if (!receipt) throw new Error(`the node has no receipt for ${use.transactionHash}`);
    if (receipt.status !== 1) return false;
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

/**
 * A node's error without its URL: hosted nodes carry their API key in the path, and ethers puts
 * the URL in the message and the stack. (Errors without an ethers code are the checker's own.)
 */
export function nodeErrorOf(error: unknown): { code: string; message: string } {
  const { code, shortMessage, message } = (error ?? {}) as { code?: unknown; shortMessage?: unknown; message?: unknown };
  if (typeof code !== 'string') return { code: 'UNEXPECTED_ANSWER', message: typeof message === 'string' ? message : String(error) };
  return { code, message: typeof shortMessage === 'string' ? shortMessage : 'the node request failed' };
}
