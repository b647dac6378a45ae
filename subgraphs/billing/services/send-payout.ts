import { Contract, JsonRpcProvider, NonceManager, Wallet } from 'ethers';
import type { Config } from '../../../shared/config.js';

const ERC20 = ['function transfer(address to, uint256 value) returns (bool)'];
/** How long a payout waits for its receipt before it is left `processing` for an operator. */
const RECEIPT_TIMEOUT_MS = 120_000;

export type PayoutSendResult =
  | { outcome: 'paid'; txHash: string }
  | { outcome: 'failed'; txHash: string | null; reason: string }
  | { outcome: 'unknown'; txHash: string; reason: string };

interface Sender {
  token: Contract;
  /** Sends go one at a time per process, so two payouts never take the same nonce. */
  queue: Promise<unknown>;
}

const senders = new Map<string, Sender>();

function senderOf(payouts: Config['payouts']): Sender | null {
  const { rpcUrl, signerKey, asset } = payouts;
  if (!rpcUrl || !signerKey || !asset) return null;
  const cacheKey = `${rpcUrl}|${asset}|${signerKey}`;
  let sender = senders.get(cacheKey);
  if (!sender) {
    const provider = new JsonRpcProvider(rpcUrl, undefined, { batchMaxCount: 1, pollingInterval: 1_000, cacheTimeout: -1 });
    const signer = new NonceManager(new Wallet(signerKey, provider));
    sender = { token: new Contract(asset, ERC20, signer), queue: Promise.resolve() };
    senders.set(cacheKey, sender);
  }
  return sender;
}

/** Whether on-chain payouts are set up (RPC, signer and asset); nothing is connected to answer it. */
export const onChainPayouts = (config: Config) => Boolean(config.payouts.rpcUrl && config.payouts.signerKey && config.payouts.asset);

const reasonOf = (error: any): string => String(error?.shortMessage ?? error?.reason ?? error?.message ?? error).slice(0, 300);

/**
 * Sends `amount` atomic units of PAYOUT_ASSET (micro-dollars: 6 decimals, as USDC) to `to`, and
 * waits for the receipt. A transfer that reverts (when estimated, or mined) is `failed`; one sent
 * whose receipt does not come in time is `unknown` (it may still be mined: not failed).
 */
export async function sendPayout(config: Config, to: string, amount: bigint, onSent: (txHash: string) => Promise<void>): Promise<PayoutSendResult> {
  const sender = senderOf(config.payouts);
  if (!sender) throw new Error('On-chain payouts are not configured');
  // Only the send is queued (it takes the nonce); receipts are awaited side by side.
  const sent = sender.queue.then(async () => {
    try {
      return { tx: await sender.token.getFunction('transfer')(to, amount) };
    } catch (error) {
      (sender.token.runner as NonceManager).reset();
      return { error };
    }
  });
  sender.queue = sent;
  const { tx, error } = (await sent) as { tx?: any; error?: unknown };
  if (!tx) return { outcome: 'failed', txHash: null, reason: reasonOf(error) };
  await onSent(tx.hash);
  try {
    const receipt = await tx.wait(1, RECEIPT_TIMEOUT_MS);
    if (receipt?.status === 1) return { outcome: 'paid', txHash: tx.hash };
    return { outcome: 'failed', txHash: tx.hash, reason: 'The transfer reverted on chain' };
  } catch (waitError: any) {
    if (waitError?.code === 'CALL_EXCEPTION') return { outcome: 'failed', txHash: tx.hash, reason: reasonOf(waitError) };
    return { outcome: 'unknown', txHash: tx.hash, reason: reasonOf(waitError) };
  }
}