import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startFakeServer, type FakeServer } from './listen.js';

/** An x402 facilitator stand-in (/verify, /settle): settles everything unless told to refuse, or to answer /settle unclearly. */
export class FakeFacilitator {
  readonly calls: { path: string; body: any }[] = [];
  refuseSettlement = false;
  /** /settle answers a gateway's HTML error page: whether the transfer went on-chain is unknown. */
  garbleSettlement = false;
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
    if (req.url === '/settle' && this.garbleSettlement) {
      res.writeHead(502, { 'content-type': 'text/html' });
      return void res.end('<html><body>Bad gateway</body></html>');
    }
    if (req.url === '/settle') {
      const answer = this.refuseSettlement
        ? { success: false, errorReason: 'insufficient_funds', transaction: '', network: body.paymentRequirements?.network, payer }
        : { success: true, transaction: `0x${randomBytes(32).toString('hex')}`, network: body.paymentRequirements?.network, payer };
      return void res.end(JSON.stringify(answer));
    }
    res.statusCode = 404;
    res.end('{}');
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
