import type { RequestContext } from '../../../shared/context.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { formatMoney } from '../../../shared/money.js';
import type { UsageSummary } from '../types/results.js';
import { requireCaller, requireMemberOrOperator } from './access.js';
import { plainQuantity } from './invoice-views.js';
import { PAID_TO_PUBLISHER_KINDS } from './wallet-activity.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;

const invalidRange = (message: string) => badRequest('invalid_date_range', message);

function dateOf(value: string, name: string): Date {
  const date = new Date(`${value}T00:00:00Z`);
  if (!ISO_DATE.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw invalidRange(`${name} must be an ISO date, YYYY-MM-DD`);
  }
  return date;
}

/** [start, end] as whole UTC days: by default the last 30 days to today; at most 366 days. */
export function dateRange(startDate?: string | null, endDate?: string | null): { start: Date; end: Date } {
  const end = endDate ? dateOf(endDate, 'end_date') : new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
  const start = startDate ? dateOf(startDate, 'start_date') : new Date(end.getTime() - (DEFAULT_DAYS - 1) * DAY_MS);
  if (start > end) throw invalidRange('start_date must not be after end_date');
  if ((end.getTime() - start.getTime()) / DAY_MS + 1 > MAX_DAYS) throw invalidRange(`The range is at most ${MAX_DAYS} days`);
  return { start, end };
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * An organization's usage per day: paid calls and charges per publisher (amount and the gateway
 * fees in it) from the ledger, for the wallets of the users it is the default organization of, and
 * recorded usage per meter. Members and the operator only; 404 for anyone else.
 */
export async function readUsageSummary(context: RequestContext, organizationParam: string, startDate?: string | null, endDate?: string | null): Promise<UsageSummary> {
  requireCaller(context);
  const missing = () => notFound('Organization');
  // `default` names the caller's acting organization, as elsewhere in the API.
  const organizationId = organizationParam === 'default' && context.identity ? context.identity.organizationId : organizationParam;
  if (!isUuid(organizationId)) throw missing();
  await requireMemberOrOperator(context, organizationId, missing);
  const { start, end } = dateRange(startDate, endDate);
  const until = new Date(end.getTime() + DAY_MS);
  const em = context.em;
  const owners = (await context.services.ports.defaultOrganizationUsers?.(em, organizationId)) ?? [];
  const publishers = owners.length === 0 ? [] : await em.execute(
    `select to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, c.publisher_id, count(*)::int as calls,
            sum(t.amount)::text as amount, coalesce(sum(f.amount), 0)::text as fees
       from ledger_transfer t
       join ledger_account a on a.id = t.debit_account_id
       join ledger_account c on c.id = t.credit_account_id
       left join ledger_transfer f on f.idempotency_key = regexp_replace(t.idempotency_key, ':capture(:rest){0,1}$', ':fee\\1')
      where a.owner_id = any(?::uuid[]) and t.created_at >= ? and t.created_at < ?
        and t.type in ('transfer', 'post') and t.amount > 0 and t.kind = any(?::text[]) and c.publisher_id is not null
      group by 1, 2 order by 1, 2`,
    [`{${owners.join(',')}}`, start, until, `{${PAID_TO_PUBLISHER_KINDS.join(',')}}`],
  );
  const meters = await em.execute(
    `select to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD') as day, meter, sum(quantity)::text as quantity,
            sum(round(quantity * unit_price_micros))::bigint::text as amount
       from billing_usage_record where organization_id = ? and occurred_at >= ? and occurred_at < ?
      group by 1, 2 order by 1, 2`,
    [organizationId, start, until],
  );
  return {
    organizationId,
    startDate: day(start),
    endDate: day(end),
    publishers: publishers.map((row: Record<string, any>) => ({
      date: row.day,
      publisherId: row.publisher_id,
      calls: row.calls,
      amount: formatMoney(BigInt(row.amount)),
      fees: formatMoney(BigInt(row.fees)),
    })),
    meters: meters.map((row: Record<string, any>) => ({
      date: row.day,
      meter: row.meter,
      quantity: plainQuantity(String(row.quantity)),
      amount: formatMoney(BigInt(row.amount)),
    })),
  };
}
