import { formatMoney, parseMoney } from '../../shared/money.js';
import { PlatformError } from '../platform/platform-client.js';
import { capped } from '../results.js';
import type { ToolContext } from '../tool.js';
import type { PublisherRef } from './publishers.js';

export interface CallShape {
  method: string;
  path: string;
  query?: Record<string, string | string[]>;
  body?: unknown;
  /** What estimate_query_cost prices (a database publisher's SQL). */
  sql?: string;
}

interface Estimate {
  estimated_cost: string;
  max_cost: string;
  currency: string;
  pricing_model: string;
}

interface CallAnswer {
  status: number;
  content_type: string | null;
  body: string;
  json: unknown;
  charge_id: string | null;
  charge_amount: string | null;
  balance_remaining: string | null;
}

const MAX_TEXT = 100_000;

/** The price of a call as the proxy will decide it: the estimate, and the most it can be charged (what it holds). */
export function estimateCall(context: ToolContext, publisher: PublisherRef, call: CallShape): Promise<Estimate> {
  return context.platform.run<Estimate>(
    `query($slug: String!, $input: EstimateInput!) { estimatePublisherCall(slug: $slug, input: $input) { estimatedCost maxCost currency pricingModel } }`,
    { slug: publisher.slug, input: { publisherId: publisher.id, method: call.method, path: call.path, ...(call.sql ? { query: call.sql } : {}) } },
  );
}

type Consent = { given: true } | { given: false; answer: Record<string, unknown> };

/**
 * Above MCP_CONFIRM_ABOVE_USD a call is made only with consent: `confirm: true`, or the person's
 * yes to a form (when the client can show one). Otherwise the answer is the price, and how to accept it.
 */
async function consentTo(context: ToolContext, toolName: string, publisher: PublisherRef, price: string, confirm: boolean | undefined): Promise<Consent> {
  if (parseMoney(price) <= context.settings.confirmAbove || confirm === true) return { given: true };
  const quote = { price, currency: 'USD', publisher: publisher.slug };
  if (context.elicit) {
    const reply = await context.elicit({
      message: `Pay up to ${price} USD to ${publisher.name} (${publisher.slug}) for this call?`,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: `Pay up to ${price} USD`, description: 'Charged to your prepaid wallet' } },
        required: ['confirm'],
      },
    });
    if (reply.action === 'accept' && reply.content?.confirm === true) return { given: true };
    return { given: false, answer: { status: 'declined', ...quote, message: 'The payment was not approved; nothing was charged' } };
  }
  return {
    given: false,
    answer: {
      status: 'confirmation_required',
      ...quote,
      message:
        `This call costs up to ${price} USD, above the ${formatMoney(context.settings.confirmAbove)} USD that needs confirmation ` +
        `(MCP_CONFIRM_ABOVE_USD). Nothing was charged. Call ${toolName} again with confirm: true to pay it.`,
    },
  };
}

/** A JSON answer with its rows capped (a top-level list, or the first list under rows, data, results or items). */
function cappedJson(json: unknown, maxRows: number): { result: unknown; truncated: boolean } {
  const hint = 'The answer was cut to MCP_MAX_ROWS rows; ask the publisher for fewer (LIMIT, paging parameters)';
  if (Array.isArray(json)) {
    const { items, truncated } = capped(json, maxRows, hint);
    return { result: items, truncated };
  }
  if (json && typeof json === 'object') {
    const object = json as Record<string, unknown>;
    // The platform's own envelope ({"data": {"rows": …}}): the rows inside it.
    if (object.data && typeof object.data === 'object' && !Array.isArray(object.data)) {
      const inner = cappedJson(object.data, maxRows);
      return { result: { ...object, data: inner.result }, truncated: inner.truncated };
    }
    const key = ['rows', 'data', 'results', 'items'].find((name) => Array.isArray(object[name]));
    if (key) {
      const { items, truncated } = capped(object[key] as unknown[], maxRows, hint);
      return { result: { ...object, [key]: items }, truncated };
    }
  }
  return { result: json, truncated: false };
}

function outcomeOf(answer: CallAnswer, price: string, maxRows: number): Record<string, unknown> {
  const succeeded = answer.status >= 200 && answer.status < 400;
  const body =
    answer.json !== null
      ? cappedJson(answer.json, maxRows)
      : { result: answer.body.slice(0, MAX_TEXT), truncated: answer.body.length > MAX_TEXT };
  return {
    status: succeeded ? 'completed' : 'upstream_error',
    http_status: answer.status,
    price,
    currency: 'USD',
    charged: answer.charge_amount ?? '0',
    charge_id: answer.charge_id,
    balance_remaining: answer.balance_remaining,
    content_type: answer.content_type,
    result: body.result,
    truncated: body.truncated,
  };
}

/**
 * A paid call: priced first, made only with consent above the threshold, and never charged more
 * than the price agreed (the platform refuses the call, nothing held, when it could cost more).
 */
export async function makePaidCall(
  context: ToolContext,
  toolName: string,
  publisher: PublisherRef,
  call: CallShape,
  confirm: boolean | undefined,
): Promise<Record<string, unknown>> {
  const estimate = await estimateCall(context, publisher, call);
  const consent = await consentTo(context, toolName, publisher, estimate.max_cost, confirm);
  if (!consent.given) return consent.answer;
  let answer: CallAnswer;
  try {
    answer = await context.platform.run<CallAnswer>(
      `mutation($input: CallPublisherInput!) { callPublisher(input: $input) { status contentType body json chargeId chargeAmount balanceRemaining } }`,
      {
        input: {
          slug: publisher.slug,
          method: call.method,
          path: call.path,
          ...(call.query ? { query: call.query } : {}),
          ...(call.body !== undefined ? { body: call.body } : {}),
          maxCharge: estimate.max_cost,
        },
      },
    );
  } catch (error) {
    // The price rose between the quote and the call: nothing was charged; it is quoted again.
    if (error instanceof PlatformError && error.code === 'price_above_limit') {
      const price = String(error.details?.price ?? estimate.max_cost);
      const again = await consentTo(context, toolName, publisher, price, false);
      if (!again.given) return again.answer;
    }
    throw error;
  }
  return outcomeOf(answer, estimate.max_cost, context.settings.maxRows);
}
