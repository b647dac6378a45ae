import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/** An x402 facilitator stand-in (/verify, /settle): settles everything unless told to refuse. */
export class FakeFacilitator {
  readonly calls: { path: string; body: any }[] = [];
  refuseSettlement = false;
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        const body = JSON.parse(text || '{}');
        this.calls.push({ path: req.url ?? '', body });
        const payer = body.paymentPayload?.payload?.authorization?.from;
        res.setHeader('content-type', 'application/json');
        if (req.url === '/verify') return void res.end(JSON.stringify({ isValid: true, payer }));
        if (req.url === '/settle') {
          const answer = this.refuseSettlement
            ? { success: false, errorReason: 'insufficient_funds', transaction: '', network: body.paymentRequirements?.network, payer }
            : { success: true, transaction: `0x${randomBytes(32).toString('hex')}`, network: body.paymentRequirements?.network, payer };
          return void res.end(JSON.stringify(answer));
        }
        res.statusCode = 404;
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    return closed;
  }
}
