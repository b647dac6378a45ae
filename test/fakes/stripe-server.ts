import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startFakeServer, type FakeServer } from './listen.js';

export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete';
}

/**
 * A Stripe-compatible server for the one call the platform makes (POST /v1/checkout/sessions),
 * so the real `stripe` SDK runs unmodified against it. It keeps what it was sent for assertions.
 */
export class FakeStripe {
  readonly sessions = new Map<string, FakeCheckoutSession>();
  readonly authorizations: string[] = [];
  private server!: FakeServer;

  get url() {
    return this.server.url;
  }

  async start(): Promise<this> {
    this.server = await startFakeServer((req, body, res) => this.answer(req, body, res));
    return this;
  }

  private answer(req: IncomingMessage, body: string, res: ServerResponse) {
    this.authorizations.push(String(req.headers.authorization ?? ''));
    res.setHeader('content-type', 'application/json');
    if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
      return void res.end(JSON.stringify(this.createSession(new URLSearchParams(body))));
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url})` } }));
  }

  private createSession(form: URLSearchParams): FakeCheckoutSession {
    const id = `cs_test_${randomBytes(12).toString('hex')}`;
    const metadata: Record<string, string> = {};
    for (const [key, value] of form) {
      const match = /^metadata\[(.+)\]$/.exec(key);
      if (match) metadata[match[1]!] = value;
    }
    const session: FakeCheckoutSession = {
      id,
      object: 'checkout.session',
      url: `https://checkout.stripe.test/c/pay/${id}`,
      mode: form.get('mode') ?? 'payment',
      amount_total: Number(form.get('line_items[0][price_data][unit_amount]')) * Number(form.get('line_items[0][quantity]') ?? 1),
      currency: form.get('line_items[0][price_data][currency]') ?? 'usd',
      client_reference_id: form.get('client_reference_id'),
      metadata,
      payment_status: 'unpaid',
      status: 'open',
    };
    this.sessions.set(id, session);
    return session;
  }

  /** The event Stripe would deliver when the customer has paid. */
  paidEvent(sessionId: string, type = 'checkout.session.completed') {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`unknown session ${sessionId}`);
    return {
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...session, payment_status: 'paid', status: 'complete' } },
    };
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
