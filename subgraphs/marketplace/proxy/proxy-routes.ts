import type { Request, Response, Router } from 'express';
import type { RequestContext } from '../../../shared/context.js';
import { readCapped } from '../../../shared/http/upstream-client.js';
import { detachableBody } from '../../../shared/http/unread-body.js';
import type { PlatformServices } from '../../../shared/services.js';
import { errorBodyOf, sendError } from '../../../shared/http/error-response.js';
import { finishPaidCall, needsBufferedBody, readPaidAnswer, refundBrokenAnswer, startPaidCall, type FinishedCall, type StartedCall } from './paid-call.js';
import { usageCountersOf } from './usage-counters-of.js';
import { chargeHeaders } from './charging.js';
import { CallerGone, relayBody, UpstreamBrokeOff } from './relay-body.js';
import { callPublisherTool, isToolPublisher, listPublisherResources, listPublisherTools } from './tool-calls.js';
import { callDatabasePublisher, databaseAnswer, isDatabasePublisher } from './database-calls.js';
import { AppError, badRequest } from '../../../shared/errors.js';
import { isMarketplaceSubpath, toolCallName } from '../services/reserved-paths.js';
import { jsonDepthOf, jsonTooDeep, MAX_JSON_DEPTH } from '../../../shared/http/json-depth.js';
import { PaymentRequired, sendPaymentRequired } from '../../../shared/x402/index.js';

/** Errors of the data plane; an x402 payment requirement is answered in the protocol's own shape. */
function sendProxyError(res: Response, context: RequestContext, error: unknown): void {
  if (error instanceof PaymentRequired) return sendPaymentRequired(res, error.terms, error.reason);
  sendError(res, errorBodyOf(error, context.log, context.requestId));
}

/** Tool arguments: the request body as a JSON object (this route runs before the JSON parser). */
async function readJsonBody(req: Request, maxBytes: number): Promise<unknown> {
  const raw = await readCapped(req, Math.min(maxBytes, 1024 * 1024)).catch(() => {
    throw new AppError(413, 'payload_too_large', 'Tool arguments exceed 1 MB');
  });
  if (raw.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('invalid_json', 'The request body is not valid JSON');
  }
  if (jsonDepthOf(parsed) > MAX_JSON_DEPTH) throw jsonTooDeep();
  return parsed;
}

/**
 * The called path and query as the caller wrote them (encoded), after /publishers/{slug}: the first
 * two segments are cut whatever their spelling, as the router matched them (it ignores case).
 */
export function upstreamPathOf(req: Request): { path: string; query: string } {
  const [pathname, query = ''] = req.originalUrl.split(/\?(.*)/s, 2) as [string, string?];
  const afterSlug = pathname.split('/').slice(3).join('/');
  return { path: `/${afterSlug}`, query };
}

/**
 * The methods a publisher's API is called with. TRACE (which echoes the request, injected
 * credentials included), CONNECT and the rest are refused before anything is sent or charged.
 */
const FORWARDED_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'];

const hasBody = (req: Request) =>
  req.method !== 'GET' && req.method !== 'HEAD' && (Boolean(req.headers['transfer-encoding']) || Number(req.headers['content-length'] ?? 0) > 0);

/** The upstream's Content-Length, passed on as is: the body is relayed byte for byte (never decoded). */
function fixedLengthOf(started: StartedCall): string | null {
  const length = started.response.headers['content-length'];
  return typeof length === 'string' && /^\d+$/.test(length) ? length : null;
}

/**
 * A charged answer the caller never got whole is refunded: one cut short, or an event stream that
 * failed before its first byte. An event stream that had been flowing (closed by an idle timeout
 * after minutes of events) keeps its charge, as does a call whose caller left.
 */
function wasNotDelivered(error: unknown, eventStream: boolean): boolean {
  if (error instanceof CallerGone) return false;
  if (error instanceof UpstreamBrokeOff) return !eventStream || error.bytesRelayed === 0;
  return true;
}

const isEventStream = (started: StartedCall) => String(started.response.headers['content-type'] ?? '').startsWith('text/event-stream');

function varyOn(res: Response, value: string): void {
  try {
    res.vary(value);
  } catch {
    res.append('vary', value);
  }
}

async function relay(services: PlatformServices, context: RequestContext, started: StartedCall, res: Response) {
  const counters = usageCountersOf(services);
  let finished: FinishedCall | null = null;
  try {
    const buffered = needsBufferedBody(started) ? await readPaidAnswer(context, started) : null;
    finished = await finishPaidCall(context, started, counters, buffered);
    res.status(finished.status);
    // Vary is merged: the front door's own (Origin, with CORS) must survive the upstream's. One
    // that is not a list of header names (res.vary throws on it) is added as written.
    for (const [name, value] of Object.entries(finished.headers)) {
      if (name === 'vary') varyOn(res, value);
      else res.setHeader(name, value);
    }
    if (buffered) return void res.end(buffered);
    const length = fixedLengthOf(started);
    // A body of known length goes out with the headers in one write; a stream shows its status
    // and charge headers before its first event, however long that takes.
    if (length === null) res.flushHeaders();
    else res.setHeader('content-length', length);
    await relayBody(started.response.body, res);
  } catch (error) {
    // Not charged: reading and finishing abandon the call themselves when they fail.
    if (!finished) {
      if (!res.destroyed) sendProxyError(res, context, error);
      return;
    }
    // Charged: the caller has, or is about to have, the status; a body cut short must look cut short.
    res.destroy();
    if (wasNotDelivered(error, isEventStream(started))) await refundBrokenAnswer(context, started, finished, counters);
  }
}

/** One call through the data plane: resolved, held and sent, then relayed and charged. */
async function proxyCall(services: PlatformServices, context: RequestContext, req: Request, res: Response, target: { path: string; query: string }) {
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  let started: StartedCall;
  try {
    started = await startPaidCall(context, {
      slug: String(req.params.slug),
      method: req.method,
      path: target.path,
      query: target.query,
      headers: req.headers,
      // Not the request itself: a failed upstream request destroys its body stream, and the rest of
      // the caller's body must stay readable to be discarded (the connection is kept).
      body: hasBody(req) ? detachableBody(req) : null,
      signal: abort.signal,
    });
  } catch (error) {
    // A caller who went away aborted the upstream request: there is no one left to answer.
    if (res.destroyed) return;
    return sendProxyError(res, context, error);
  }
  await relay(services, context, started, res);
}

/**
 * The data plane: every method under /publishers/{slug}/… (and POST /publishers/{slug}) is metered,
 * charged and forwarded to the publisher's upstream, streaming both ways. It runs before JSON body
 * parsing, so request bodies reach the upstream as sent.
 */
export function mountPaidProxy(router: Router, services: PlatformServices): void {
  const answer = (work: (context: RequestContext, req: Request, res: Response) => Promise<void>) => async (req: Request, res: Response) => {
    const context = res.locals.context as RequestContext;
    res.locals.surface = 'publishers';
    try {
      await work(context, req, res);
    } catch (error) {
      sendProxyError(res, context, error);
    }
  };
  router.get('/publishers/:slug/_tools', answer(async (context, req, res) => void res.json({ data: await listPublisherTools(context, String(req.params.slug)) })));
  router.get('/publishers/:slug/_resources', answer(async (context, req, res) => void res.json({ data: await listPublisherResources(context, String(req.params.slug)) })));
  const callTool = answer(async (context, req, res) => {
    const body = await readJsonBody(req, services.config.proxy.maxBufferedBytes);
    const outcome = await callPublisherTool(context, String(req.params.slug), String(req.params.tool), body, req.headers);
    res.set({ ...chargeHeaders(outcome.charge), ...outcome.receiptHeaders }).json({ data: outcome.result });
  });

  const queryDatabase = answer(async (context, req, res) => {
    const body = await readJsonBody(req, services.config.proxy.maxBufferedBytes);
    const outcome = await callDatabasePublisher(context, String(req.params.slug), body);
    res.set(chargeHeaders(outcome.charge)).json({ data: databaseAnswer(outcome) });
  });

  const handle = async (req: Request, res: Response, next: () => void) => {
    const { path, query } = upstreamPathOf(req);
    if (isMarketplaceSubpath(req.method, path)) return next();
    const context = res.locals.context as RequestContext;
    // For the request metrics: the data plane, not the catalogue routes beside it under /publishers/.
    res.locals.surface = 'publishers';
    if (!FORWARDED_METHODS.includes(req.method)) {
      res.setHeader('Allow', FORWARDED_METHODS.join(', '));
      return sendError(res, { status: 405, code: 'method_not_allowed', message: `${req.method} is not forwarded to publishers` });
    }
    const toolName = toolCallName(req.method, path);
    if (toolName !== null && (await isToolPublisher(context, String(req.params.slug)))) {
      req.params.tool = toolName;
      return callTool(req, res);
    }
    if (req.method === 'POST' && path === '/' && (await isDatabasePublisher(context, String(req.params.slug)))) return queryDatabase(req, res);
    // Tracked whole: a call cut at the end of a stop's grace still releases its hold, and a broken
    // answer's refund runs on after the connection is gone; the stop waits for both.
    await services.background.track(proxyCall(services, context, req, res, { path, query }));
  };
  router.post('/publishers/:slug', handle);
  router.all('/publishers/:slug/*path', handle);
}
