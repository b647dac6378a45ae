import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../shared/context.js';
import { AppError, badRequest, unauthorized } from '../../../shared/errors.js';
import { formatMoney } from '../../../shared/money.js';
import type { PublishedQueryLimits, PublishedQueryResult } from '../../../shared/ports.js';
import type { PlatformServices } from '../../../shared/services.js';
import type { Publisher } from '../entities/publisher.js';
import { databaseLocationOf } from '../services/database-location.js';
import { publisherForCall, type PublisherForCall } from '../services/load-publisher-for-call.js';
import { pricingOf } from '../services/pricing-of.js';
import { priceCall } from '../services/pricing.js';
import { enforceCallRate } from './call-rate.js';
import type { CallTarget } from './call-target.js';
import { abandonPayment, payForCall } from './call-payment.js';
import { captureCallCharge, type Charge } from './charging.js';
import { nothingCharged } from './nothing-charged.js';
import { usageCountersOf } from './usage-counters-of.js';

/** The most rows a published query returns, whatever the publisher asks for. */
const MAX_PUBLISHED_ROWS = 100_000;

export interface DatabaseCallOutcome {
  data: Omit<PublishedQueryResult, 'durationMs'> & { cost: string };
  charge: Charge | null;
}

/** From the cached call view: the root of a database publisher takes a query. */
export async function isDatabasePublisher(context: RequestContext, slug: string): Promise<boolean> {
  const loaded = await publisherForCall(context.services, context.em, slug).catch(() => null);
  return loaded?.publisher.publisherCategory === 'database';
}

const positive = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null);

/** The publisher's database_config within the platform's own limits. */
export function publishedLimits(services: PlatformServices, publisher: Publisher): PublishedQueryLimits {
  const config = publisher.databaseConfig ?? {};
  const { maxRows, statementTimeoutMs } = services.config.databases;
  return {
    maxRows: Math.min(positive(config.max_rows) ?? maxRows, MAX_PUBLISHED_ROWS),
    statementTimeoutMs: Math.min(positive(config.statement_timeout_ms) ?? statementTimeoutMs, statementTimeoutMs),
  };
}

/** The per-row price of `rows`: base_price_per_1000_rows × markup, at least min_charge, plus the fee, never above reserve_max_charge. */
export const priceRows = (loaded: PublisherForCall, rows: number) => priceCall(pricingOf(loaded.pricing), null, { method: 'POST', rows }, loaded.publisher.gatewayFeePercent);

/**
 * POST /publishers/{slug} {query} on a database publisher: the query runs read-only on the
 * published database (see the runPublishedQuery port) and is charged per row returned. The hold
 * is the most the query can cost (its row cap's price, within reserve_max_charge), so the charge
 * is always exactly the price of the rows returned. A refused query (a write, even disguised) or a
 * failing one is not charged: its hold is released.
 */
export function callDatabasePublisher(context: RequestContext, slug: string, body: unknown): Promise<DatabaseCallOutcome> {
  return context.services.background.track(callDatabase(context, slug, body));
}

async function callDatabase(context: RequestContext, slug: string, body: unknown): Promise<DatabaseCallOutcome> {
  const { services } = context;
  const loaded = await publisherForCall(services, context.em, slug);
  const { publisher } = loaded;
  if (!context.identity) throw unauthorized();
  const query = body && typeof body === 'object' && !Array.isArray(body) ? (body as { query?: unknown }).query : undefined;
  if (typeof query !== 'string' || query.trim() === '') throw badRequest('invalid_query', 'The body needs a "query": one SQL SELECT statement');
  const location = databaseLocationOf(publisher);
  const run = services.ports.runPublishedQuery;
  if (!location || !run) throw new AppError(503, 'publisher_database_unavailable', `Publisher ${publisher.slug} has no database to query yet; nothing was charged`);
  const pricing = pricingOf(loaded.pricing);
  await enforceCallRate(context, { publisher, pricing });
  const limits = publishedLimits(services, publisher);
  const most = priceRows(loaded, limits.maxRows);
  const target: CallTarget = { loaded, publisher, endpoint: null, pricing, price: most, reserve: most.total, chargesUpstreamCost: false, anonymousAllowed: false, payableOnChain: false, userToken: null };
  const callId = randomUUID();
  const metadata = { publisher_id: publisher.id, publisher_slug: publisher.slug, endpoint: 'POST /' };
  const payment = await payForCall(context, target, { callId, path: '/', headers: {}, metadata: { ...metadata, status: 'pending' } });
  let result: PublishedQueryResult;
  try {
    result = await run(context.em, location, query, limits);
  } catch (error) {
    await abandonPayment(context, payment, error instanceof AppError ? error.code : 'query_failed');
    throw nothingCharged(error);
  }
  const charge = payment.hold
    ? await services.metrics.timeLedgerStep('post', () => captureCallCharge(context.em, payment.hold!, priceRows(loaded, result.rowCount), { ...metadata, status: 'ok', rows: result.rowCount }, context.log))
    : null;
  usageCountersOf(services).record(publisher.id, context.identity.userId, charge?.publisherEarned ?? 0n);
  if (charge) services.metrics.countCharge(charge.amount);
  else services.metrics.countUncharged(false);
  const { durationMs: _duration, ...data } = result;
  return { data: { ...data, cost: formatMoney(charge?.amount ?? 0n) }, charge };
}

/** A database publisher's answer in the REST spelling. */
export const databaseAnswer = ({ data }: DatabaseCallOutcome) => ({
  rows: data.rows,
  fields: data.fields.map((field) => ({ name: field.name, data_type_name: field.dataTypeName })),
  row_count: data.rowCount,
  truncated: data.truncated,
  cost: data.cost,
});
