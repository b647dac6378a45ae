import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { retriedTransaction } from '../../../shared/db/retried-transaction.js';
import { formatMoney, MICROS_PER_CENT } from '../../../shared/money.js';
import type { InvoicesGenerated } from '../types/results.js';
import { requireOperator } from './access.js';
import { closedPeriod, type BillingPeriod } from './billing-period.js';
import { amountDueCentsOf } from './invoice-amounts.js';
import { plainQuantity } from './invoice-views.js';
import { pgArray } from '../../../shared/db/pg-array.js';
import { readWalletActivity } from './wallet-activity.js';

interface DraftLine {
  kind: 'usage' | 'info';
  description: string;
  item: string;
  publisherId: string | null;
  quantity: string;
  unitPriceMicros: bigint | null;
  amountMicros: bigint;
}

const INFO_DESCRIPTIONS: Record<string, string> = {
  paid_calls: 'Paid from the wallet to a publisher (calls and charges)',
  deposits: 'Deposits into the wallet',
  credits: 'Claims, bonuses and referral credits',
  refunds: 'Refunds into the wallet',
};

/** Usage billed in the period: one line per organization, meter and unit price. */
async function usageLines(em: EntityManager, bounds: BillingPeriod, lines: Map<string, DraftLine[]>) {
  const rows = await em.execute(
    `select organization_id, meter, unit_price_micros::text as unit_price, sum(quantity)::text as quantity,
            round(sum(quantity) * unit_price_micros)::bigint::text as amount
       from billing_usage_record where occurred_at >= ? and occurred_at < ?
      group by organization_id, meter, unit_price_micros order by organization_id, meter, unit_price_micros`,
    [bounds.start, bounds.end],
  );
  for (const row of rows) {
    const unitPrice = BigInt(row.unit_price);
    const quantity = plainQuantity(String(row.quantity));
    linesOf(lines, row.organization_id).push({
      kind: 'usage',
      description: `${row.meter}: ${quantity} at ${formatMoney(unitPrice)} USD`,
      item: row.meter,
      publisherId: null,
      quantity,
      unitPriceMicros: unitPrice,
      amountMicros: BigInt(row.amount),
    });
  }
}

/** What each organization's users did with their wallets: shown, nothing due (the wallet paid already). */
async function informationLines(context: RequestContext, bounds: BillingPeriod, lines: Map<string, DraftLine[]>) {
  const organizationsOf = context.services.ports.defaultOrganizations;
  if (!organizationsOf) return;
  const activity = await readWalletActivity(context.em, bounds.start, bounds.end, null);
  if (activity.length === 0) return;
  const organizations = await organizationsOf(context.em, [...new Set(activity.map((entry) => entry.ownerId))]);
  const merged = new Map<string, DraftLine>();
  for (const entry of activity) {
    const organizationId = organizations.get(entry.ownerId);
    if (!organizationId) continue;
    const key = `${organizationId}|${entry.item}|${entry.publisherId ?? ''}`;
    const line = merged.get(key);
    if (line) {
      line.quantity = String(Number(line.quantity) + entry.count);
      line.amountMicros += entry.amount;
      continue;
    }
    const fresh: DraftLine = {
      kind: 'info',
      description: INFO_DESCRIPTIONS[entry.item] ?? entry.item,
      item: entry.item,
      publisherId: entry.publisherId,
      quantity: String(entry.count),
      unitPriceMicros: null,
      amountMicros: entry.amount,
    };
    merged.set(key, fresh);
    linesOf(lines, organizationId).push(fresh);
  }
}

function linesOf(lines: Map<string, DraftLine[]>, organizationId: string): DraftLine[] {
  let list = lines.get(organizationId);
  if (!list) lines.set(organizationId, (list = []));
  return list;
}

const column = <T>(rows: T[], pick: (row: T) => string | number | bigint | null) => pgArray(rows.map(pick));

/** Inserts the invoices that do not exist yet (one per organization and period) and the lines of those only. */
async function insertInvoices(tx: EntityManager, period: string, lines: Map<string, DraftLine[]>): Promise<number> {
  const drafts = [...lines.entries()].map(([organizationId, list]) => {
    const total = list.filter((line) => line.kind === 'usage').reduce((sum, line) => sum + line.amountMicros, 0n);
    return { id: randomUUID(), organizationId, total, dueCents: amountDueCentsOf(total), list };
  });
  if (drafts.length === 0) return 0;
  const created = await tx.execute(
    `insert into billing_invoice (id, organization_id, period, status, total_micros, amount_due_cents, currency, created_at)
     select id, organization_id, ?, 'draft', total, due, 'usd', now()
       from unnest(?::uuid[], ?::uuid[], ?::bigint[], ?::bigint[]) as d(id, organization_id, total, due)
     on conflict (organization_id, period) do nothing returning id`,
    [
      period,
      column(drafts, (d) => d.id),
      column(drafts, (d) => d.organizationId),
      column(drafts, (d) => d.total),
      column(drafts, (d) => d.dueCents),
    ],
  );
  const createdIds = new Set(created.map((row: Record<string, string>) => row.id));
  const rows = drafts
    .filter((draft) => createdIds.has(draft.id))
    .flatMap((draft) => draft.list.map((line, position) => ({ invoiceId: draft.id, position, ...line })));
  if (rows.length > 0) {
    await tx.execute(
      `insert into billing_invoice_line (id, invoice_id, position, kind, description, item, publisher_id, quantity, unit_price_micros, amount_micros)
       select gen_random_uuid(), * from unnest(?::uuid[], ?::smallint[], ?::text[], ?::text[], ?::text[], ?::uuid[], ?::numeric[], ?::bigint[], ?::bigint[])`,
      [
        column(rows, (r) => r.invoiceId),
        column(rows, (r) => r.position),
        column(rows, (r) => r.kind),
        column(rows, (r) => r.description),
        column(rows, (r) => r.item),
        column(rows, (r) => r.publisherId),
        column(rows, (r) => r.quantity),
        column(rows, (r) => (r.unitPriceMicros === null ? null : r.unitPriceMicros.toString())),
        column(rows, (r) => r.amountMicros.toString()),
      ],
    );
  }
  return createdIds.size;
}

/**
 * Operator: one invoice per organization that had usage or wallet activity in a closed month. Runs
 * for one period are serialised (an advisory lock), and an organization's invoice for a period is
 * unique, so a second run creates nothing and answers the invoices made before.
 */
export async function generateInvoices(context: RequestContext, period: string | null | undefined): Promise<InvoicesGenerated> {
  requireOperator(context);
  const bounds = closedPeriod(period);
  const lines = new Map<string, DraftLine[]>();
  await usageLines(context.em, bounds, lines);
  await informationLines(context, bounds, lines);
  const created = await retriedTransaction(context.em, async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`billing-invoices:${bounds.period}`]);
    const count = await insertInvoices(tx, bounds.period, lines);
    await tx.execute(`insert into billing_invoice_run (id, period, created, finished_at) values (?, ?, ?, now())`, [randomUUID(), bounds.period, count]);
    return count;
  });
  const invoices = await context.em.execute(
    `select id, organization_id, status, amount_due_cents::text as cents from billing_invoice where period = ? order by created_at, id`,
    [bounds.period],
  );
  return {
    period: bounds.period,
    created,
    total: invoices.length,
    invoices: invoices.map((row: Record<string, any>) => ({
      id: row.id,
      organizationId: row.organization_id,
      status: row.status,
      amountDue: formatMoney(BigInt(row.cents) * MICROS_PER_CENT),
    })),
  };
}
