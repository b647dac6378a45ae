import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { AbiCoder, getAddress, Interface, toBeHex, zeroPadValue } from 'ethers';
import { startFakeServer, type FakeServer } from './listen.js';

const token = new Interface([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);
const USED_TOPIC = token.getEvent('AuthorizationUsed')!.topicHash;
const hash32 = () => `0x${randomBytes(32).toString('hex')}`;
const hex = (value: number | bigint) => toBeHex(value);
const addressTopic = (address: string) => zeroPadValue(getAddress(address), 32).toLowerCase();

const transferLog = (asset: string, from: string, to: string, amount: bigint) => ({
  address: asset,
  topics: [token.getEvent('Transfer')!.topicHash, addressTopic(from), addressTopic(to)],
  data: AbiCoder.defaultAbiCoder().encode(['uint256'], [amount]),
});

interface Transaction {
  hash: string;
  blockNumber: number;
  status: 0 | 1;
  logs: { address: string; topics: string[]; data: string }[];
}

/**
 * A JSON-RPC node of an EVM chain standing in for Base: the x402 token contract's
 * authorizationState, its AuthorizationUsed and Transfer logs, blocks and receipts, just enough
 * for ethers' provider and contract to read them. Tests make authorizations execute (or have their
 * nonce used some other way) and move the chain's clock.
 */
export class FakeChainNode {
  readonly calls: string[] = [];
  blockNumber = 5_000_000;
  /** The latest block's time, in seconds. */
  blockTime = Math.floor(Date.now() / 1000);
  /** Answer every request with a 503 (a node that is down). */
  down = false;
  /** Answer only these methods with a 503 (a node that fails half-way through a sweep). */
  failing = new Set<string>();
  /** Answer eth_getLogs with nothing (a hosted node whose log index lags its state). */
  logsLagging = false;
  /** The block each used nonce was used in, by payer and nonce. */
  private readonly used = new Map<string, number>();
  private readonly transactions = new Map<string, Transaction>();
  private server!: FakeServer;

  constructor(readonly asset: string) {}

  get url() {
    return this.server.url;
  }

  async start(): Promise<this> {
    this.server = await startFakeServer((_req, text, res) => this.answer(text, res));
    return this;
  }

  /** The authorization executes: its nonce is used and `amount` moves from payer to payTo, `depth` blocks ago (20). Returns the transaction hash. */
  execute(
    authorization: { payer: string; nonce: string; payTo: string; amount: bigint },
    options: { status?: 0 | 1; depth?: number; alsoPaid?: { payTo: string; amount: bigint } } = {},
  ): string {
    const transfers = [transferLog(this.asset, authorization.payer, authorization.payTo, authorization.amount)];
    // Another transfer in the same transaction (a batch), not made by this authorization.
    if (options.alsoPaid) transfers.push(transferLog(this.asset, authorization.payer, options.alsoPaid.payTo, options.alsoPaid.amount));
    return this.useNonce(authorization, transfers, options.status ?? 1, options.depth ?? 20);
  }

  /** Blocks are made (two seconds apart) on top of the latest. */
  mine(blocks: number): void {
    this.blockNumber += blocks;
    this.blockTime += 2 * blocks;
  }

  /** The nonce is used without paying payTo: the payer spent it on another authorization they signed (to themselves, here). */
  spendNonceElsewhere(authorization: { payer: string; nonce: string; amount: bigint }): string {
    return this.execute({ ...authorization, payTo: authorization.payer });
  }

  /** As FiatToken does: the use is logged, then the transfer. The transaction is then buried under `depth` blocks. */
  private useNonce(authorization: { payer: string; nonce: string }, transferLogs: Transaction['logs'], status: 0 | 1, depth: number): string {
    const used = { address: this.asset, topics: [USED_TOPIC, addressTopic(authorization.payer), authorization.nonce.toLowerCase()], data: '0x' };
    const transaction: Transaction = { hash: hash32(), blockNumber: this.blockNumber + 1, status, logs: [used, ...transferLogs] };
    this.blockNumber += depth;
    this.transactions.set(transaction.hash, transaction);
    if (status === 1) this.used.set(`${getAddress(authorization.payer)}:${authorization.nonce.toLowerCase()}`, transaction.blockNumber);
    return transaction.hash;
  }

  private answer(text: string, res: ServerResponse) {
    res.setHeader('content-type', 'application/json');
    if (this.down) {
      res.statusCode = 503;
      return void res.end('{"error":"unavailable"}');
    }
    const request = JSON.parse(text) as { id: number; method: string; params: any[] };
    this.calls.push(request.method);
    if (this.failing.has(request.method)) {
      res.statusCode = 503;
      return void res.end('{"error":"unavailable"}');
    }
    try {
      res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: this.call(request.method, request.params) }));
    } catch (error) {
      res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: String((error as Error).message) } }));
    }
  }

  private call(method: string, params: any[]): unknown {
    switch (method) {
      case 'eth_chainId':
        return hex(84532);
      case 'eth_blockNumber':
        return hex(this.blockNumber);
      case 'eth_getBlockByNumber':
        return this.block(params[0] === 'latest' ? this.blockNumber : Number(params[0]));
      case 'eth_call': {
        // As of the block asked for: a nonce used in a later block is still unused there.
        const [authorizer, nonce] = token.decodeFunctionData('authorizationState', params[0].data);
        const usedIn = this.used.get(`${getAddress(authorizer)}:${String(nonce).toLowerCase()}`);
        const at = params[1] === undefined || params[1] === 'latest' ? this.blockNumber : Number(params[1]);
        return token.encodeFunctionResult('authorizationState', [usedIn !== undefined && usedIn <= at]);
      }
      case 'eth_getLogs':
        return this.logs(params[0]);
      case 'eth_getTransactionReceipt':
        return this.receipt(params[0]);
      default:
        throw new Error(`method ${method} not supported`);
    }
  }

  /** Blocks come every 2 s, the latest at blockTime. */
  private block(number: number) {
    return {
      hash: hash32(),
      parentHash: hash32(),
      number: hex(number),
      timestamp: hex(this.blockTime - 2 * (this.blockNumber - number)),
      nonce: '0x0000000000000000',
      difficulty: '0x0',
      gasLimit: hex(30_000_000),
      gasUsed: '0x0',
      miner: '0x4200000000000000000000000000000000000011',
      extraData: '0x',
      baseFeePerGas: hex(1000),
      transactions: [],
    };
  }

  private logs(filter: { address?: string; topics?: (string | null)[]; fromBlock?: string; toBlock?: string }) {
    if (this.logsLagging) return [];
    const from = filter.fromBlock ? Number(filter.fromBlock) : 0;
    const to = filter.toBlock ? Number(filter.toBlock) : this.blockNumber;
    const wanted = (filter.topics ?? []).map((topic) => topic?.toLowerCase() ?? null);
    return [...this.transactions.values()].flatMap((transaction) =>
      transaction.status === 1 && transaction.blockNumber >= from && transaction.blockNumber <= to
        ? transaction.logs
            .map((log, index) => ({ log, index }))
            .filter(({ log }) => (!filter.address || getAddress(filter.address) === getAddress(log.address)) && wanted.every((topic, at) => topic === null || log.topics[at] === topic))
            .map(({ log, index }) => this.formatLog(transaction, log, index))
        : [],
    );
  }

  private formatLog(transaction: Transaction, log: Transaction['logs'][number], index: number) {
    return { ...log, blockHash: hash32(), blockNumber: hex(transaction.blockNumber), transactionHash: transaction.hash, transactionIndex: '0x0', logIndex: hex(index), removed: false };
  }

  private receipt(hash: string) {
    const transaction = this.transactions.get(hash.toLowerCase());
    if (!transaction) return null;
    return {
      to: this.asset,
      from: '0x4200000000000000000000000000000000000011',
      contractAddress: null,
      transactionIndex: '0x0',
      gasUsed: hex(60_000),
      logsBloom: `0x${'00'.repeat(256)}`,
      blockHash: hash32(),
      transactionHash: transaction.hash,
      logs: transaction.logs.map((log, index) => this.formatLog(transaction, log, index)),
      blockNumber: hex(transaction.blockNumber),
      cumulativeGasUsed: hex(60_000),
      effectiveGasPrice: hex(1000),
      status: hex(transaction.status),
      type: '0x2',
    };
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
