export const billingFragments: Record<string, string> = {
  InvoiceFields:
    'fragment InvoiceFields on InvoiceView { id organizationId period periodStart periodEnd status currency total amountDue amountDueCents createdAt issuedAt paidAt lineItems { id kind description item publisherId quantity unitPrice amount amountDue } }',
  PaymentMethodFields:
    'fragment PaymentMethodFields on PaymentMethodView { id stripePaymentMethodId type brand last4 expMonth expYear isDefault createdAt }',
  PublisherChargeFields:
    'fragment PublisherChargeFields on PublisherChargeInfo { id publisherId payerId amount fee refundedAmount slashedAmount status source description metadata createdAt }',
  PublisherPayoutFields:
    'fragment PublisherPayoutFields on PublisherPayoutInfo { id publisherId amount status walletAddress networkId asset txHash failureReason createdAt updatedAt }',
  AllowanceFields:
    'fragment AllowanceFields on AllowanceView { id publisherId publisherSlug monthlyLimit spentThisMonth expiresAt revokedAt active createdAt }',
};
