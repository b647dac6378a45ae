import { Allowance } from './allowance.js';
import { Charge } from './charge.js';
import { IdempotentRequest } from './idempotent-request.js';
import { Invoice } from './invoice.js';
import { InvoiceLine } from './invoice-line.js';
import { InvoicePayment } from './invoice-payment.js';
import { InvoiceRun } from './invoice-run.js';
import { PaymentMethod } from './payment-method.js';
import { Payout } from './payout.js';
import { StripeCustomer } from './stripe-customer.js';
import { StripeEventSeen } from './stripe-event.js';
import { UsageRecordRow } from './usage-record.js';

export const billingEntities = [
  UsageRecordRow,
  Invoice,
  InvoiceLine,
  InvoiceRun,
  InvoicePayment,
  StripeEventSeen,
  StripeCustomer,
  PaymentMethod,
  IdempotentRequest,
  Allowance,
  Charge,
  Payout,
];
