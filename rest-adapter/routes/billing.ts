import { bodyObject, singleHeader, stringQuery, type RestRequest, type RestRoute } from '../route.js';

const input = (request: RestRequest) => ({ input: bodyObject(request) });
/** Every POST of the publishers' section takes an Idempotency-Key header, passed to the operation. */
const idempotencyKey = (request: RestRequest) => singleHeader(request, 'idempotency-key');
const slug = (request: RestRequest) => request.params.slug;
const id = (request: RestRequest) => ({ id: request.params.id });

/** "Billing" of the specification (Stripe's webhook is the wallet's raw route, which announces events billing acts on). */
export const billingRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/billing/health',
    auth: 'optional',
    document: 'query { billingHealth { status database stripeConfigured onChainPayouts lastInvoiceRunAt } }',
  },
  {
    method: 'POST',
    path: '/billing/invoices/generate',
    document:
      'mutation($input: GenerateInvoicesInput) { generateInvoices(input: $input) { period created total invoices { id organizationId status amountDue } } }',
    variables: input,
  },
  {
    method: 'GET',
    path: '/billing/invoices/:id',
    document: 'query($id: ID!) { invoice(id: $id) { ...InvoiceFields } }',
    variables: id,
  },
  {
    method: 'POST',
    path: '/billing/invoices/:id/issue',
    document: 'mutation($id: ID!) { issueInvoice(id: $id) { id status } }',
    variables: id,
  },
  {
    method: 'POST',
    path: '/billing/invoices/:id/void',
    document: 'mutation($id: ID!) { voidInvoice(id: $id) { id status } }',
    variables: id,
  },
  {
    method: 'POST',
    path: '/billing/invoices/:id/mark-uncollectible',
    document: 'mutation($id: ID!) { markInvoiceUncollectible(id: $id) { id status } }',
    variables: id,
  },
  {
    method: 'POST',
    path: '/billing/invoices/:id/pay',
    document: 'mutation($id: ID!) { payInvoice(id: $id) { id status clientSecret amountCents invoiceId } }',
    variables: id,
  },
  {
    method: 'GET',
    path: '/billing/invoices/:id/payments',
    document: 'query($id: ID!) { invoicePayments(invoiceId: $id) { id intentId amountCents status failureReason createdAt updatedAt } }',
    variables: id,
  },
  { method: 'GET', path: '/billing/payment-methods', document: 'query { paymentMethods { ...PaymentMethodFields } }' },
  {
    method: 'POST',
    path: '/billing/payment-methods',
    document: 'mutation($input: AddPaymentMethodInput!) { addPaymentMethod(input: $input) { ...PaymentMethodFields } }',
    variables: input,
  },
  {
    method: 'DELETE',
    path: '/billing/payment-methods/:id',
    document: 'mutation($id: ID!) { deletePaymentMethod(id: $id) }',
    variables: id,
    status: 204,
  },
  {
    method: 'GET',
    path: '/billing/usage/:organization_id',
    document:
      'query($organizationId: ID!, $startDate: String, $endDate: String) { usageSummary(organizationId: $organizationId, startDate: $startDate, endDate: $endDate) { organizationId startDate endDate publishers { date publisherId calls amount fees } meters { date meter quantity amount } } }',
    variables: (request) => ({
      organizationId: request.params.organization_id,
      startDate: stringQuery(request, 'start_date'),
      endDate: stringQuery(request, 'end_date'),
    }),
  },
  {
    method: 'POST',
    path: '/billing/publishers/:slug/charges',
    document:
      'mutation($slug: String!, $input: CreateChargeInput!, $idempotencyKey: String) { createPublisherCharge(slug: $slug, input: $input, idempotencyKey: $idempotencyKey) { ...PublisherChargeFields } }',
    variables: (request) => ({ slug: slug(request), input: bodyObject(request), idempotencyKey: idempotencyKey(request) }),
  },
  {
    method: 'GET',
    path: '/billing/publishers/:slug/charges/:charge_id',
    document: 'query($slug: String!, $chargeId: ID!) { publisherCharge(slug: $slug, chargeId: $chargeId) { ...PublisherChargeFields } }',
    variables: (request) => ({ slug: slug(request), chargeId: request.params.charge_id }),
  },
  {
    method: 'POST',
    path: '/billing/publishers/:slug/charges/:charge_id/refund',
    document:
      'mutation($slug: String!, $chargeId: ID!, $input: RefundChargeInput, $idempotencyKey: String) { refundPublisherCharge(slug: $slug, chargeId: $chargeId, input: $input, idempotencyKey: $idempotencyKey) { ...PublisherChargeFields } }',
    variables: (request) => ({ slug: slug(request), chargeId: request.params.charge_id, input: bodyObject(request), idempotencyKey: idempotencyKey(request) }),
  },
  {
    method: 'POST',
    path: '/billing/publishers/:slug/charges/:charge_id/slash',
    document:
      'mutation($slug: String!, $chargeId: ID!, $input: SlashChargeInput!, $idempotencyKey: String) { slashPublisherCharge(slug: $slug, chargeId: $chargeId, input: $input, idempotencyKey: $idempotencyKey) }',
    variables: (request) => ({ slug: slug(request), chargeId: request.params.charge_id, input: bodyObject(request), idempotencyKey: idempotencyKey(request) }),
    status: 204,
  },
  {
    method: 'GET',
    path: '/billing/publishers/:slug/earnings',
    document: 'query($slug: String!) { publisherEarnings(slug: $slug) { publisherId balance pendingPayouts onHold available } }',
    variables: (request) => ({ slug: slug(request) }),
  },
  {
    method: 'POST',
    path: '/billing/publishers/:slug/payouts',
    document:
      'mutation($slug: String!, $input: CreatePayoutInput!, $idempotencyKey: String) { createPublisherPayout(slug: $slug, input: $input, idempotencyKey: $idempotencyKey) { ...PublisherPayoutFields } }',
    variables: (request) => ({ slug: slug(request), input: bodyObject(request), idempotencyKey: idempotencyKey(request) }),
  },
  {
    method: 'GET',
    path: '/billing/publishers/:slug/payouts/:payout_id',
    document: 'query($slug: String!, $payoutId: ID!) { publisherPayout(slug: $slug, payoutId: $payoutId) { ...PublisherPayoutFields } }',
    variables: (request) => ({ slug: slug(request), payoutId: request.params.payout_id }),
  },
  {
    method: 'POST',
    path: '/billing/publishers/:slug/payouts/:payout_id/mark-paid',
    document:
      'mutation($slug: String!, $payoutId: ID!, $input: MarkPayoutPaidInput!) { markPublisherPayoutPaid(slug: $slug, payoutId: $payoutId, input: $input) { ...PublisherPayoutFields } }',
    variables: (request) => ({ slug: slug(request), payoutId: request.params.payout_id, input: bodyObject(request) }),
  },
  {
    method: 'POST',
    path: '/billing/publishers/:slug/payouts/:payout_id/mark-failed',
    document:
      'mutation($slug: String!, $payoutId: ID!, $input: MarkPayoutFailedInput) { markPublisherPayoutFailed(slug: $slug, payoutId: $payoutId, input: $input) { ...PublisherPayoutFields } }',
    variables: (request) => ({ slug: slug(request), payoutId: request.params.payout_id, input: bodyObject(request) }),
  },
  { method: 'GET', path: '/billing/allowances', document: 'query { spendingAllowances { ...AllowanceFields } }' },
  {
    method: 'POST',
    path: '/billing/allowances',
    document:
      'mutation($input: GrantAllowanceInput!, $idempotencyKey: String) { grantSpendingAllowance(input: $input, idempotencyKey: $idempotencyKey) { ...AllowanceFields } }',
    variables: (request) => ({ input: bodyObject(request), idempotencyKey: idempotencyKey(request) }),
  },
  {
    method: 'DELETE',
    path: '/billing/allowances/:id',
    document: 'mutation($id: ID!) { revokeSpendingAllowance(id: $id) { ...AllowanceFields } }',
    variables: id,
  },
];
