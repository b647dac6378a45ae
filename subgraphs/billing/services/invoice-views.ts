import type { EntityManager } from '@mikro-orm/postgresql';
import { formatMoney, MICROS_PER_CENT } from '../../../shared/money.js';
import type { Invoice } from '../entities/invoice.js';
import { InvoiceLine } from '../entities/invoice-line.js';
import type { InvoicePayment } from '../entities/invoice-payment.js';
import type { InvoicePaymentRecord, InvoiceView } from '../types/results.js';
import { periodBounds } from './billing-period.js';

/** The quantity as written: no trailing zeros of the numeric column. */
export const plainQuantity = (quantity: string) => (quantity.includes('.') ? quantity.replace(/\.?0+$/, '') : quantity);

export async function invoiceView(em: EntityManager, invoice: Invoice): Promise<InvoiceView> {
  const lines = await em.find(InvoiceLine, { invoiceId: invoice.id }, { orderBy: { position: 'asc' } });
  const bounds = periodBounds(invoice.period);
  return {
    id: invoice.id,
    organizationId: invoice.organizationId,
    period: invoice.period,
    periodStart: bounds.start,
    periodEnd: bounds.end,
    status: invoice.status,
    currency: invoice.currency,
    total: formatMoney(invoice.totalMicros),
    amountDue: formatMoney(invoice.amountDueCents * MICROS_PER_CENT),
    amountDueCents: Number(invoice.amountDueCents),
    createdAt: invoice.createdAt,
    issuedAt: invoice.issuedAt,
    paidAt: invoice.paidAt,
    lineItems: lines.map((line) => ({
      id: line.id,
      kind: line.kind,
      description: line.description,
      item: line.item,
      publisherId: line.publisherId,
      quantity: plainQuantity(String(line.quantity)),
      unitPrice: line.unitPriceMicros === null ? null : formatMoney(BigInt(line.unitPriceMicros)),
      amount: formatMoney(BigInt(line.amountMicros)),
      amountDue: formatMoney(line.kind === 'usage' ? BigInt(line.amountMicros) : 0n),
    })),
  };
}

export const paymentRecordOf = (payment: InvoicePayment): InvoicePaymentRecord => ({
  id: payment.id,
  intentId: payment.intentId,
  amountCents: Number(payment.amountCents),
  status: payment.status,
  failureReason: payment.failureReason,
  createdAt: payment.createdAt,
  updatedAt: payment.updatedAt,
});
