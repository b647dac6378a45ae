import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { generateInvoices } from '../services/generate-invoices.js';
import { changeInvoiceStatus, listInvoicePayments, readInvoice } from '../services/invoices.js';
import { payInvoice } from '../services/pay-invoice.js';
import { GenerateInvoicesInput } from '../types/inputs.js';
import { InvoicePaymentRecord, InvoicesGenerated, InvoiceStatusChange, InvoiceView, PaymentIntentCreated } from '../types/results.js';

@Resolver()
export class InvoiceResolver {
  @Query(() => InvoiceView, { description: 'An invoice with its line items: its organization’s members and the operator' })
  invoice(@Arg('id', () => ID) id: string, @Ctx() context: RequestContext) {
    return readInvoice(context, id);
  }

  @Query(() => [InvoicePaymentRecord], { description: 'Payment attempts of an invoice' })
  invoicePayments(@Arg('invoiceId', () => ID) invoiceId: string, @Ctx() context: RequestContext) {
    return listInvoicePayments(context, invoiceId);
  }

  @Mutation(() => InvoicesGenerated, { description: 'Operator: one invoice per organization with usage or wallet activity in a closed month' })
  generateInvoices(@Arg('input', () => GenerateInvoicesInput, { nullable: true }) input: GenerateInvoicesInput | null, @Ctx() context: RequestContext) {
    return generateInvoices(context, input?.period);
  }

  @Mutation(() => InvoiceStatusChange, { description: 'Operator: draft -> issued (paid at once when nothing is due)' })
  issueInvoice(@Arg('id', () => ID) id: string, @Ctx() context: RequestContext) {
    return changeInvoiceStatus(context, id, 'issue');
  }

  @Mutation(() => InvoiceStatusChange, { description: 'Operator: an unpaid invoice is cancelled' })
  voidInvoice(@Arg('id', () => ID) id: string, @Ctx() context: RequestContext) {
    return changeInvoiceStatus(context, id, 'void');
  }

  @Mutation(() => InvoiceStatusChange, { description: 'Operator: an issued invoice will not be collected' })
  markInvoiceUncollectible(@Arg('id', () => ID) id: string, @Ctx() context: RequestContext) {
    return changeInvoiceStatus(context, id, 'uncollectible');
  }

  @Mutation(() => PaymentIntentCreated, { description: 'A member starts paying an issued invoice (a Stripe PaymentIntent)' })
  payInvoice(@Arg('id', () => ID) id: string, @Ctx() context: RequestContext) {
    return payInvoice(context, id);
  }
}
