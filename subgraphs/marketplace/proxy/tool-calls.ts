import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { AppError, badRequest, notFound } from '../../../shared/errors.js';
import { publisherForCall } from '../services/load-publisher-for-call.js';
import { enforceCallRate } from './call-rate.js';
import { pricingOf } from '../services/pricing-of.js';
import type { CallPrice } from '../services/pricing.js';
import { resolveCallTarget } from './call-target.js';
import { captureCallCharge, holdCallCharge, releaseCallCharge, type Charge, type Hold } from './charging.js';
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
}

/**
 * Calls one tool with the body as its arguments, priced like a call (price_per_execution, else
 * price_per_call). A tool that reports an error did no billable work: the hold is released.
 */
export function callPublisherTool(context: RequestContext, slug: string, toolName: string, args: unknown): Promise<ToolCallOutcome> {
  // Tracked: a stopping process lets it charge or release its hold before closing the database.
  return context.services.background.track(callTool(context, slug, toolName, args));
}

async function callTool(context: RequestContext, slug: string, toolName: string, args: unknown): Promise<ToolCallOutcome> {
  if (args !== null && args !== undefined && (typeof args !== 'object' || Array.isArray(args))) {
    throw badRequest('invalid_arguments', 'Tool arguments must be a JSON object');
  }
  const target = await resolveCallTarget(context, { slug, method: 'POST', path: `/${toolName}`, viaTools: true });
  const identity = requireIdentity(context);
  await enforceCallRate(context, target);
  const callId = randomUUID();
  const metadata = { publisher_id: target.publisher.id, publisher_slug: slug, endpoint: `tool ${toolName}` };
  const hold: Hold | null =
    target.reserve > 0n
      ? await holdCallCharge(context.em, { callId, userId: identity.userId, publisherId: target.publisher.id, amount: target.reserve, metadata })
      : null;
  const { metrics } = context.services;
  let result: Record<string, unknown>;
  const sent = performance.now();
  try {
    result = await withToolClient(context.services, target.loaded, (client, options) =>
      client.callTool({ name: toolName, arguments: (args ?? {}) as Record<string, unknown> }, undefined, options),
    );
  } catch (error) {
    if (hold) await releaseCallCharge(context.em, hold, 'tool_unreachable');
    metrics.countUncharged(hold !== null);
    throw nothingCharged(error);
  }
  metrics.upstreamResponse.observe((performance.now() - sent) / 1000);
  if (result.isError) {
    if (hold) await releaseCallCharge(context.em, hold, 'tool_error');
    metrics.countUncharged(hold !== null);
    const text = (result.content as { type: string; text?: string }[] | undefined)?.find((part) => part.type === 'text')?.text;
    throw nothingCharged(new AppError(502, 'tool_failed', text ? truncated(text) : `Tool ${toolName} reported an error`));
  }
  const charge = hold ? await captureToolCharge(context, hold, target.price, metadata) : null;
  usageCountersOf(context.services).record(target.publisher.id, identity.userId, charge?.publisherEarned ?? 0n);
  if (charge) metrics.countCharge(charge.amount);
  else metrics.countUncharged(false);
  return { result, charge };
}

/** A charge that fails gave the hold back (captureCallCharge): the call ends uncharged. */
async function captureToolCharge(context: RequestContext, hold: Hold, price: CallPrice, metadata: Record<string, unknown>): Promise<Charge> {
  try {
    return await captureCallCharge(context.em, hold, price, { ...metadata, status: 'ok' }, context.log);
  } catch (error) {
    context.services.metrics.countUncharged(true);
    throw error;
  }
}
