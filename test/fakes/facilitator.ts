import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startFakeServer, type FakeServer } from './listen.js';

export type UnclearSettlement = 'html-502' | 'json-504' | 'no-verdict';

/** An x402 facilitator stand-in (/verify, /settle): settles everything unless told to refuse, or to answer /settle unclearly. */
export class FakeFacilitator {
  readonly calls: { path: string; body: any }[] = [];
  refuseSettlement = false;
  /**
   * How /settle answers without a verdict, whether the transfer went on-chain being unknown: a
   * gateway's HTML error page (502), a gateway timeout in JSON (504), or a 200 without `success`.
   */
  unclearSettlement: UnclearSettlement | null = null;
  /** How long /settle takes to answer (a chain that is slow to confirm). */
  settleDelayMs = 0;
  private server!: FakeServer;

  get url() {
    return this.server.url;
  }

  async start(): Promise<this> {
    this.server = await startFakeServer((req, text, res) => this.answer(req, text, res));
    return this;
  }

  private answer(req: IncomingMessage, text: string, res: ServerResponse) {
    if (req.url === '/settle' && this.settleDelayMs > 0) return void setTimeout(() => this.reply(req, text, res), this.settleDelayMs);
    this.reply(req, text, res);
  }

  private reply(req: IncomingMessage, text: string, res: ServerResponse) {
    const body = JSON.parse(text || '{}');
    this.calls.push({ path: req.url ?? '', body });
    const payer = body.paymentPayload?.payload?.authorization?.from;
    res.setHeader('content-type', 'application/json');
    if (req.url === '/verify') return void res.end(JSON.stringify({ isValid: true, payer }));
    if (req.url === '/settle' && this.unclearSettlement === 'html-502') {
      res.writeHead(502, { 'content-type': 'text/html' });
      return void res.end('<html><body>Bad gateway</body></html>');
    }
    if (req.url === '/settle' && this.unclearSettlement === 'json-504') {
      res.statusCode = 504;
      return void res.end(JSON.stringify({ message: 'Endpoint request timed out' }));
    }
    if (req.url === '/settle' && this.unclearSettlement === 'no-verdict') return void res.end(JSON.stringify({ network: body.paymentRequirements?.network, payer }));
    if (req.url === '/settle') {
      const answer = this.refuseSettlement
        ? { success: false, errorReason: 'insufficient_funds', transaction: '', network: body.paymentRequirements?.network, payer }
        : { success: true, transaction: `0x${randomBytes(32).toString('hex')}`, network: body.paymentRequirements?.network, payer };
      return void res.end(JSON.stringify(answer));
    }
    res.statusCode = 404;
    res.end('{}');
  }

  /** Runs `work` while /settle answers without a verdict. */
  async withUnclearSettlement<T>(work: () => Promise<T>, how: UnclearSettlement = 'html-502'): Promise<T> {
    this.unclearSettlement = how;
    try {
      return await work();
    } finally {
      this.unclearSettlement = null;
    }
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
