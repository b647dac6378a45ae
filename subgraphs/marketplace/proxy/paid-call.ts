import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { RequestContext } from '../../../shared/context.js';
import { AppError } from '../../../shared/errors.js';
import { priceUpstreamCost } from '../services/pricing.js';
import { enforceCallRate } from './call-rate.js';
import { abandonPayment, payForCall, settleOnChain } from './call-payment.js';
import { checkedCallPath } from './call-path.js';
import { resolveCallTarget, type CallTarget } from './call-target.js';
import { captureCallCharge, chargeHeaders, refundCallCharge, releaseCallCharge, type Charge, type Hold } from './charging.js';
import { nothingCharged } from './nothing-charged.js';
import { readUpstreamCost } from './cost-path.js';
import { forgetExchangedToken, upstreamCredentials } from './credentials.js';
import { callerResponseHeaders, upstreamRequestHeaders } from './headers.js';
import { upstreamUrl } from './upstream-url.js';
import { concealCredentials, type AnswerView } from './answer-urls.js';
import type { UsageCounters } from './usage-counters.js';
import { dropCallPayment, type OnChainPayment } from './x402-calls.js';

export interface PaidCallRequest {
  slug: string;
  method: string;
  /** The upstream path, starting with "/". */
  path: string;
  /** The caller's query string, without "?". */
  query: string;
  headers: IncomingHttpHeaders;
  body: Readable | Buffer | string | null;
  signal?: AbortSignal;
}

export interface StartedCall {
  callId: string;
  target: CallTarget;
  hold: Hold | null;
  /** Paid per request on-chain (x402) instead of from the wallet. */
  onChain: OnChainPayment | null;
  /** The exchanged token the upstream was given, if any (a 401 may mean it is no longer good). */
  exchangedToken: string | null;
  response: Dispatcher.ResponseData;
  request: PaidCallRequest;
  /** What the answer's headers are shown to the caller through (links, injected credentials). */
  answerView: AnswerView;
}

export interface FinishedCall {
  status: number;
  /** What the caller receives: the upstream's content headers plus X-Charge-* when charged. */
  headers: Record<string, string>;
  charge: Charge | null;
}

const isSuccess = (status: number) => status >= 200 && status < 400;

function chargeMetadata(target: CallTarget, request: PaidCallRequest, extra: Record<string, unknown> = {}) {
  return {
    publisher_id: target.publisher.id,
    publisher_slug: target.publisher.slug,
    endpoint: `${request.method} ${target.endpoint?.path ?? request.path}`,
    ...extra,
  };
}

/**
 * Everything up to the upstream's response headers: refusals (404, 403, 401, 429, 503) and the
 * hold (402) happen before any byte goes upstream; a failed send releases the hold.
 */
export async function startPaidCall(context: RequestContext, request: PaidCallRequest): Promise<StartedCall> {
  const callId = randomUUID();
  checkedCallPath(request.path);
  const target = await resolveCallTarget(context, request);
  await enforceCallRate(context, target);
  const { hold, onChain } = await payForCall(context, target, {
    callId,
    path: request.path,
    headers: request.headers,
    metadata: chargeMetadata(target, request, { status: 'pending' }),
  });
  try {
    const credentials = await upstreamCredentials(context.services, target.loaded, target.userToken);
    const url = upstreamUrl(target.publisher.apiUrl!, request.path, request.query, credentials.query);
    const answerView = { requestUrl: url, apiUrl: target.publisher.apiUrl!, publicBase: `/publishers/${target.publisher.slug}`, credentials };
    const sent = performance.now();
    const response = await context.services.upstream.send({
      url,
      method: request.method,
      headers: { ...upstreamRequestHeaders(request.headers, target.publisher), ...credentials.headers },
      body: request.body,
      signal: request.signal,
    });
    context.services.metrics.upstreamResponse.observe((performance.now() - sent) / 1000);
    return { callId, target, hold, onChain, response, request, answerView, exchangedToken: credentials.exchangedToken ?? null };
  } catch (error) {
    // Only the platform's own error codes label it (a small fixed set); anything else is `other`.
    context.services.metrics.upstreamFailures.inc({ code: error instanceof AppError && error.code.startsWith('upstream_') ? error.code : 'other' });
    if (hold) await releaseCallCharge(context.em, hold, 'upstream_unreachable');
    if (onChain) await dropCallPayment(context, onChain);
    throw nothingCharged(error);
  }
}

/**
 * The answer read whole (capped), for charging by it or answering with it. One that cannot be
 * read abandons the call: nothing is charged.
 */
export async function readPaidAnswer(context: RequestContext, started: StartedCall): Promise<Buffer> {
  try {
    return await context.services.upstream.readWhole(started.response.body);
  } catch (error) {
    await abandonPaidCall(context, started, error instanceof AppError ? error.code : 'response_unreadable');
    throw nothingCharged(error);
  }
}

/**
 * After the upstream answered: successful work (2xx, 3xx) is charged — the price, or for
 * pay_per_use the upstream's reported cost read from `body` — anything else releases the hold. A
 * call that fails here is abandoned before the error is rethrown (its hold released, an on-chain
 * payment not settled dropped), so no caller need do it.
 */
export async function finishPaidCall(
  context: RequestContext,
  started: StartedCall,
  counters: UsageCounters,
  body: Buffer | null,
): Promise<FinishedCall> {
  try {
    return await settlePaidCall(context, started, counters, body);
  } catch (error) {
    await abandonPaidCall(context, started, 'charge_failed').catch((abandonError) =>
      context.log.error({ err: abandonError, callId: started.callId }, 'a call whose charge failed was not abandoned cleanly'),
    );
    throw error;
  }
}

async function settlePaidCall(context: RequestContext, started: StartedCall, counters: UsageCounters, body: Buffer | null): Promise<FinishedCall> {
  const { target, hold, onChain, response, request } = started;
  const headers = concealCredentials(callerResponseHeaders(response.headers), started.answerView);
  const success = isSuccess(response.statusCode);
  if (response.statusCode === 401 && started.exchangedToken) await forgetExchangedToken(context.services, target.loaded, started.exchangedToken);
  const { metrics } = context.services;
  let charge: Charge | null = null;
  if (onChain) {
    if (!success) {
      await abandonPayment(context, { hold: null, onChain }, 'upstream_failed');
      return { status: response.statusCode, headers, charge };
    }
    Object.assign(headers, await settleOnChain(context, target, onChain, counters));
  } else if (hold && success) {
    const price = target.chargesUpstreamCost
      ? priceUpstreamCost(target.pricing, upstreamCostOf(body, target.publisher.upstreamCostResponsePath), target.publisher.gatewayFeePercent, hold.amount)
      : target.price;
    const metadata = chargeMetadata(target, request, { status: response.statusCode });
    charge = await metrics.timeLedgerStep('post', () => captureCallCharge(context.em, hold, price, metadata, context.log));
    Object.assign(headers, chargeHeaders(charge));
    counters.record(target.publisher.id, context.identity?.userId ?? null, charge.publisherEarned);
    metrics.countCharge(charge.amount);
  } else if (hold) {
    await releaseCallCharge(context.em, hold, `upstream_status_${response.statusCode}`);
    metrics.countUncharged(true);
  } else {
    if (success) counters.record(target.publisher.id, context.identity?.userId ?? null, 0n);
    metrics.countUncharged(false);
  }
  return { status: response.statusCode, headers, charge };
}

function upstreamCostOf(body: Buffer | null, path: string | null): bigint | null {
  if (!body || !path) return null;
  try {
    return readUpstreamCost(JSON.parse(body.toString('utf8')), path);
  } catch {
    return null;
  }
}

/** The answer must be read whole before charging (pay_per_use reads the cost from it); a HEAD has none. */
export const needsBufferedBody = (started: StartedCall) =>
  started.target.chargesUpstreamCost && started.hold !== null && isSuccess(started.response.statusCode) && started.request.method !== 'HEAD';

/**
 * The upstream broke off an answer that was already charged: the charge goes back whole (the
 * caller's connection has been cut, so it never took the answer for complete). A refund that
 * fails is logged with the call and charge ids for a person to settle.
 */
export async function refundBrokenAnswer(context: RequestContext, started: StartedCall, finished: FinishedCall, counters: UsageCounters): Promise<void> {
  const { charge } = finished;
  if (!charge || !started.hold) return;
  try {
    await refundCallCharge(context.em, started.hold, charge, chargeMetadata(started.target, started.request, { reason: 'upstream_broke_off' }));
    counters.takeBackRevenue(started.target.publisher.id, charge.publisherEarned);
    context.services.metrics.countRefund(charge.amount);
  } catch (error) {
    context.log.error({ err: error, callId: started.callId, chargeId: charge.chargeId }, 'refund of a broken-off answer failed');
  }
}

/** A call that failed after the upstream answered but before it was settled: release the hold, drop the body. */
async function abandonPaidCall(context: RequestContext, started: StartedCall, reason: string): Promise<void> {
  // The body is dropped: an abort error it may still emit (read whole already, or cut) concerns no one.
  started.response.body.on('error', () => undefined).destroy();
  await abandonPayment(context, started, reason);
}
