import type { RequestContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors.js';
import { formatMicros } from '../services/decimal.js';
import { toolCallName } from '../services/reserved-paths.js';
import { checkedCallPath } from './call-path.js';
import type { Charge } from './charging.js';
import { finishPaidCall, readPaidAnswer, startPaidCall } from './paid-call.js';
import { callPublisherTool, isToolPublisher } from './tool-calls.js';
import { callDatabasePublisher, databaseAnswer, isDatabasePublisher } from './database-calls.js';
import { usageCountersOf } from './usage-counters-of.js';

export interface BufferedCallInput {
  slug: string;
  method?: string | null;
  path?: string | null;
  query?: Record<string, unknown> | null;
  body?: unknown;
}

export interface BufferedCallResult {
  status: number;
  contentType: string | null;
  body: string;
  json: unknown;
  chargeId: string | null;
  chargeAmount: string | null;
  balanceRemaining: string | null;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

function queryString(query: Record<string, unknown> | null | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === null || typeof item === 'object') throw badRequest('invalid_query', `Query parameter ${name} must be a string, number or boolean`);
      params.append(name, String(item));
    }
  }
  return params.toString();
}

/**
 * The paid call without streaming, for GraphQL (`callPublisher`) and tool hosts: the same
 * resolution, charging and forwarding as the HTTP data plane, with the answer read whole (capped).
 * Tracked, so a stopping process lets it charge or release its hold before closing the database.
 */
export function callPublisherBuffered(context: RequestContext, input: BufferedCallInput): Promise<BufferedCallResult> {
  return context.services.background.track(callBuffered(context, input));
}

async function callBuffered(context: RequestContext, input: BufferedCallInput): Promise<BufferedCallResult> {
  const method = (input.method ?? 'GET').toUpperCase();
  if (!METHODS.has(method)) throw badRequest('invalid_method', 'method must be GET, POST, PUT, PATCH or DELETE');
  const path = checkedCallPath(input.path ?? '/');
  const toolName = await toolNameOf(context, input.slug, method, path);
  if (toolName !== null) return toolCallAnswer(context, input.slug, toolName, input.body);
  if (method === 'POST' && path === '/' && (await isDatabasePublisher(context, input.slug))) return databaseCallAnswer(context, input.slug, input.body);
  const hasBody = input.body !== undefined && input.body !== null && method !== 'GET';
  const started = await startPaidCall(context, {
    slug: input.slug,
    method,
    path,
    query: queryString(input.query),
    headers: hasBody ? { 'content-type': 'application/json', accept: 'application/json' } : { accept: 'application/json' },
    body: hasBody ? JSON.stringify(input.body) : null,
  });
  const body = await readPaidAnswer(context, started);
  const finished = await finishPaidCall(context, started, usageCountersOf(context.services), body);
  const text = body.toString('utf8');
  let json: unknown = null;
  if ((finished.headers['content-type'] ?? '').includes('json')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  return {
    status: finished.status,
    contentType: finished.headers['content-type'] ?? null,
    body: text,
    json,
    ...chargeFields(finished.charge),
  };
}

const chargeFields = (charge: Charge | null) => ({
  chargeId: charge?.chargeId ?? null,
  chargeAmount: charge ? formatMicros(charge.amount) : null,
  balanceRemaining: charge ? formatMicros(charge.balanceRemaining) : null,
});

/** As on the data plane: the tool a call names, on a tool-protocol publisher. */
async function toolNameOf(context: RequestContext, slug: string, method: string, path: string): Promise<string | null> {
  const name = toolCallName(method, path);
  return name !== null && (await isToolPublisher(context, slug)) ? name : null;
}

async function databaseCallAnswer(context: RequestContext, slug: string, body: unknown): Promise<BufferedCallResult> {
  const outcome = await callDatabasePublisher(context, slug, body);
  const json = { data: databaseAnswer(outcome) };
  return { status: 200, contentType: 'application/json', body: JSON.stringify(json), json, ...chargeFields(outcome.charge) };
}

async function toolCallAnswer(context: RequestContext, slug: string, toolName: string, args: unknown): Promise<BufferedCallResult> {
  const outcome = await callPublisherTool(context, slug, toolName, args ?? {});
  const body = JSON.stringify(outcome.result);
  return { status: 200, contentType: 'application/json', body, json: outcome.result, ...chargeFields(outcome.charge) };
}
