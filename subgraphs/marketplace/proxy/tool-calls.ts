import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestContext } from '../../../shared/context.js';
import { isUnstorableText } from '../../../shared/text.js';
import { requireIdentity } from '../../../shared/context.js';
import { AppError, badRequest, notFound } from '../../../shared/errors.js';
import { publisherForCall } from '../services/load-publisher-for-call.js';
import { enforceCallRate } from './call-rate.js';
import { pricingOf } from '../services/pricing-of.js';
import type { CallPrice } from '../services/pricing.js';
import { resolveCallTarget, type CallTarget } from './call-target.js';
import { CONTROL_CHARACTER } from './call-path.js';
import { abandonPayment, payForCall, settleOnChain } from './call-payment.js';
import { captureCallCharge, type Charge, type Hold } from './charging.js';
import type { OnChainPayment } from './x402-calls.js';
import { nothingCharged } from './nothing-charged.js';
import { truncated, withToolClient } from './tool-client.js';
import { usageCountersOf } from './usage-counters-of.js';

/** A listing opens a session at the publisher's tool server: it counts against max_queries_per_minute like a call. */
async function toolPublisher(context: RequestContext, slug: string) {
  requireIdentity(context);
  const loaded = await publisherForCall(context.services, context.em, slug);
  if (!loaded.publisher.mcpEndpoint) throw notFound('Tool-protocol publisher', 'not_a_tool_publisher');
  await enforceCallRate(context, { publisher: loaded.publisher, pricing: pricingOf(loaded.pricing) });
  return loaded;
}

/** From the cached call view: no extra query on the paid path (an unknown publisher is answered later). */
export async function isToolPublisher(context: RequestContext, slug: string): Promise<boolean> {
  const loaded = await publisherForCall(context.services, context.em, slug).catch(() => null);
  return Boolean(loaded?.publisher.mcpEndpoint);
}

export async function listPublisherTools(context: RequestContext, slug: string) {
  const loaded = await toolPublisher(context, slug);
  return withToolClient(context.services, loaded, async (client, options) => (await client.listTools(undefined, options)).tools);
}

export async function listPublisherResources(context: RequestContext, slug: string) {
  const loaded = await toolPublisher(context, slug);
  return withToolClient(context.services, loaded, async (client, options) => (await client.listResources(undefined, options)).resources);
}

export interface ToolCallOutcome {
  result: Record<string, unknown>;
  charge: Charge | null;
  /** The on-chain settlement's receipt (X-PAYMENT-RESPONSE), when the call was paid with x402. */
  receiptHeaders: Record<string, string>;
}

/**
 * Calls one tool with the body as its arguments, priced like a call (price_per_execution, else
 * price_per_call) and paid like one: from the wallet, or on-chain with the caller's payment header
 * where the publisher bills x402_per_request. A tool that reports an error did no billable work:
 * the hold is released, an on-chain payment not settled.
 */
export function callPublisherTool(
  context: RequestContext,
  slug: string,
  toolName: string,
  args: unknown,
  headers: IncomingHttpHeaders = {},
): Promise<ToolCallOutcome> {
  // Tracked: a stopping process lets it charge or release its hold before closing the database.
  return context.services.background.track(callTool(context, slug, toolName, args, headers));
}

/** MCP tool names are at most 128 characters; control characters or a lone surrogate would end in the charge's record as a 500. */
function checkedToolName(name: string): string {
  if (name.length === 0 || name.length > 128 || CONTROL_CHARACTER.test(name) || isUnstorableText(name)) {
    throw badRequest('invalid_tool_name', 'A tool name is 1 to 128 characters, without control characters');
  }
  return name;
}

async function callTool(context: RequestContext, slug: string, name: string, args: unknown, headers: IncomingHttpHeaders): Promise<ToolCallOutcome> {
  const toolName = checkedToolName(name);
  if (args !== null && args !== undefined && (typeof args !== 'object' || Array.isArray(args))) {
    throw badRequest('invalid_arguments', 'Tool arguments must be a JSON object');
  }
  const target = await resolveCallTarget(context, { slug, method: 'POST', path: `/${toolName}`, viaTools: true });
  await enforceCallRate(context, target);
  const callId = randomUUID();
  const metadata = { publisher_id: target.publisher.id, publisher_slug: slug, endpoint: `tool ${toolName}` };
  const payment = await payForCall(context, target, { callId, path: `/${toolName}`, headers, metadata });
  const { hold, onChain } = payment;
  const abandon = (reason: string) => abandonPayment(context, payment, reason);
  let result: Record<string, unknown>;
  const sent = performance.now();
  try {
    result = await withToolClient(
      context.services,
      target.loaded,
      (client, options) => client.callTool({ name: toolName, arguments: (args ?? {}) as Record<string, unknown> }, undefined, options),
      target.userToken,
    );
  } catch (error) {
    await abandon('tool_unreachable');
    throw nothingCharged(error);
  }
  context.services.metrics.upstreamResponse.observe((performance.now() - sent) / 1000);
  if (result.isError) {
    await abandon('tool_error');
    const text = (result.content as { type: string; text?: string }[] | undefined)?.find((part) => part.type === 'text')?.text;
    throw nothingCharged(new AppError(502, 'tool_failed', text ? truncated(text) : `Tool ${toolName} reported an error`));
  }
  if (onChain) return { result, charge: null, receiptHeaders: await settleToolPayment(context, target, onChain) };
  const charge = hold ? await captureToolCharge(context, hold, target.price, metadata) : null;
  usageCountersOf(context.services).record(target.publisher.id, context.identity?.userId ?? null, charge?.publisherEarned ?? 0n);
  if (charge) context.services.metrics.countCharge(charge.amount);
  else context.services.metrics.countUncharged(false);
  return { result, charge, receiptHeaders: {} };
}

/** As for any x402 call: settled once the work is done; a settlement that fails drops the payment (nothing taken). */
async function settleToolPayment(context: RequestContext, target: CallTarget, onChain: OnChainPayment): Promise<Record<string, string>> {
  try {
    return await settleOnChain(context, target, onChain, usageCountersOf(context.services));
  } catch (error) {
    await abandonPayment(context, { hold: null, onChain }, 'settle_failed').catch((dropError) =>
      context.log.error({ err: dropError, publisher: target.publisher.slug }, 'a tool payment whose settlement failed was not dropped cleanly'),
    );
    throw error;
  }
}

/** A charge that fails gave the hold back (captureCallCharge): the call ends uncharged. */
async function captureToolCharge(context: RequestContext, hold: Hold, price: CallPrice, metadata: Record<string, unknown>): Promise<Charge> {
  try {
    return await context.services.metrics.timeLedgerStep('post', () => captureCallCharge(context.em, hold, price, { ...metadata, status: 'ok' }, context.log));
  } catch (error) {
    context.services.metrics.countUncharged(true);
    throw error;
  }
}
