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

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  description: string | null;
  metadata: Record<string, string>;
  status: string;
  client_secret: string;
  last_payment_error: { code: string; message: string } | null;
}

/** Payment method ids the fake refuses to attach, as Stripe would (a declined card, an unknown id). */
export const DECLINED_PAYMENT_METHOD = 'pm_card_chargeDeclined';
export const UNKNOWN_PAYMENT_METHOD = 'pm_does_not_exist';

const randomId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** `metadata[a]=b` form fields as an object. */
function metadataOf(form: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of form) {
    const match = /^metadata\[(.+)\]$/.exec(key);
    if (match) metadata[match[1]!] = value;
  }
  return metadata;
}

/**
 * A Stripe-compatible server for the calls the platform makes (checkout sessions, customers,
 * payment methods attach/detach, payment intents, with Idempotency-Key replays), so the real
 * `stripe` SDK runs unmodified against it. It keeps what it was sent for assertions.
 */
export class FakeStripe {
  readonly sessions = new Map<string, FakeCheckoutSession>();
  readonly customers = new Map<string, { id: string; metadata: Record<string, string> }>();
  /** Attached payment methods: id -> customer. */
  readonly attached = new Map<string, string>();
  readonly intents = new Map<string, FakePaymentIntent>();
  readonly authorizations: string[] = [];
  /** Answers already given, by Idempotency-Key: Stripe replays them. */
  private readonly replays = new Map<string, string>();
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
    const key = req.headers['idempotency-key'];
    const replayKey = typeof key === 'string' ? `${req.method} ${req.url} ${key}` : null;
    if (replayKey && this.replays.has(replayKey)) return void res.end(this.replays.get(replayKey));
    const [status, answer] = this.route(req.method ?? 'GET', req.url ?? '/', new URLSearchParams(body));
    const text = JSON.stringify(answer);
    if (replayKey && status === 200) this.replays.set(replayKey, text);
    res.statusCode = status;
    res.end(text);
  }

  private route(method: string, url: string, form: URLSearchParams): [number, unknown] {
    if (method === 'POST' && url === '/v1/checkout/sessions') return [200, this.createSession(form)];
    if (method === 'POST' && url === '/v1/customers') {
      const customer = { id: randomId('cus'), object: 'customer', metadata: metadataOf(form) };
      this.customers.set(customer.id, customer);
      return [200, customer];
    }
    const method_ = /^\/v1\/payment_methods\/([^/]+)\/(attach|detach)$/.exec(url);
    if (method === 'POST' && method_) return method_[2] === 'attach' ? this.attach(method_[1]!, form) : this.detach(method_[1]!);
    if (method === 'POST' && url === '/v1/payment_intents') return [200, this.createIntent(form)];
    const intent = /^\/v1\/payment_intents\/([^/?]+)$/.exec(url);
    if (method === 'GET' && intent && this.intents.has(intent[1]!)) return [200, this.intents.get(intent[1]!)];
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url})` } }];
  }

  private paymentMethod(id: string, customer: string | null) {
    return { id, object: 'payment_method', type: 'card', customer, card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 } };
  }

  private attach(id: string, form: URLSearchParams): [number, unknown] {
    if (id === DECLINED_PAYMENT_METHOD) {
      return [402, { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } }];
    }
    if (id === UNKNOWN_PAYMENT_METHOD) {
      return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such PaymentMethod: '${id}'` } }];
    }
    const customer = form.get('customer');
    if (!customer || !this.customers.has(customer)) {
      return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such customer: '${customer}'` } }];
    }
    this.attached.set(id, customer);
    return [200, this.paymentMethod(id, customer)];
  }

  private detach(id: string): [number, unknown] {
    if (!this.attached.delete(id)) {
      return [400, { error: { type: 'invalid_request_error', message: 'The payment method you provided is not attached to a customer so detachment is impossible.' } }];
    }
    return [200, this.paymentMethod(id, null)];
  }

  private createIntent(form: URLSearchParams): FakePaymentIntent {
    const id = randomId('pi');
    const paymentMethod = form.get('payment_method');
    const intent: FakePaymentIntent = {
      id,
      object: 'payment_intent',
      amount: Number(form.get('amount')),
      amount_received: 0,
      currency: form.get('currency') ?? 'usd',
      customer: form.get('customer'),
      payment_method: paymentMethod,
      description: form.get('description'),
      metadata: metadataOf(form),
      status: paymentMethod ? 'requires_confirmation' : 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      last_payment_error: null,
    };
    this.intents.set(id, intent);
    return intent;
  }

  /** The event Stripe would deliver about an intent: `succeeded`, `payment_failed` (a declined card) or another. */
  intentEvent(intentId: string, type: 'payment_intent.succeeded' | 'payment_intent.payment_failed' | 'payment_intent.processing', createdOffsetSeconds = 0) {
    const intent = this.intents.get(intentId);
    if (!intent) throw new Error(`unknown intent ${intentId}`);
    const object: FakePaymentIntent =
      type === 'payment_intent.succeeded'
        ? { ...intent, status: 'succeeded', amount_received: intent.amount, last_payment_error: null }
        : type === 'payment_intent.payment_failed'
          ? { ...intent, status: 'requires_payment_method', last_payment_error: { code: 'card_declined', message: 'Your card was declined.' } }
          : { ...intent, status: 'processing' };
    return { id: randomId('evt'), object: 'event', type, created: Math.floor(Date.now() / 1000) + createdOffsetSeconds, data: { object } };
  }

  private createSession(form: URLSearchParams): FakeCheckoutSession {
    const id = `cs_test_${randomBytes(12).toString('hex')}`;
    const metadata = metadataOf(form);
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
