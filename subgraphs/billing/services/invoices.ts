import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { conflict } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { Invoice, type InvoiceStatus } from '../entities/invoice.js';
import { InvoicePayment } from '../entities/invoice-payment.js';
import type { InvoiceStatusChange } from '../types/results.js';
import { invoiceNotFound, requireCaller, requireMemberOrOperator, requireOperator } from './access.js';
import { invoiceView, paymentRecordOf } from './invoice-views.js';

export async function findInvoice(em: EntityManager, id: string, forUpdate = false): Promise<Invoice> {
  const invoice = isUuid(id) ? await em.findOne(Invoice, { id }, forUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}) : null;
  if (!invoice) throw invoiceNotFound();
  return invoice;
}

/** An invoice its organization's members (and the operator) may see; 404 for anyone else, as for an unknown id. */
export async function readableInvoice(context: RequestContext, id: string): Promise<Invoice> {
  requireCaller(context);
  const invoice = await findInvoice(context.em, id);
  await requireMemberOrOperator(context, invoice.organizationId, invoiceNotFound);
  return invoice;
}

export async function readInvoice(context: RequestContext, id: string) {
  return invoiceView(context.em, await readableInvoice(context, id));
}

export async function listInvoicePayments(context: RequestContext, id: string) {
  const invoice = await readableInvoice(context, id);
  const payments = await context.em.find(InvoicePayment, { invoiceId: invoice.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return payments.map(paymentRecordOf);
}

const NEXT: Record<'issue' | 'void' | 'uncollectible', { from: InvoiceStatus[]; code: string }> = {
  issue: { from: ['draft'], code: 'invoice_not_draft' },
  void: { from: ['draft', 'issued', 'uncollectible'], code: 'invoice_not_voidable' },
  uncollectible: { from: ['issued'], code: 'invoice_not_issued' },
};

/**
 * Operator transitions on Stripe's model: draft -> issued (an issued invoice with nothing due is
 * paid at once), issued -> uncollectible, and void for anything not paid. The row is locked, so a
 * webhook's payment and a transition never both win.
 */
export async function changeInvoiceStatus(context: RequestContext, id: string, change: keyof typeof NEXT): Promise<InvoiceStatusChange> {
  requireOperator(context);
  return context.em.transactional(async (tx) => {
    const invoice = await findInvoice(tx as EntityManager, id, true);
    const rule = NEXT[change];
    if (!rule.from.includes(invoice.status)) throw conflict(rule.code, `The invoice is ${invoice.status}`);
    const now = new Date();
    if (change === 'issue') {
      invoice.issuedAt = now;
      invoice.status = invoice.amountDueCents > 0n ? 'issued' : 'paid';
      if (invoice.status === 'paid') invoice.paidAt = now;
    } else {
      invoice.status = change;
    }
    return { id: invoice.id, status: invoice.status };
  });
}
