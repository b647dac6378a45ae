import type { SubgraphModule } from '../../shared/subgraph.js';
import { buildFederatedSchema } from '../../shared/federation.js';
import { memoize } from '../../shared/memoize.js';
import { billingEntities } from './entities/index.js';
import { billingMigrations } from './migrations/index.js';
import { AllowanceResolver } from './resolvers/allowance.resolver.js';
import { BillingHealthResolver } from './resolvers/billing-health.resolver.js';
import { InvoiceResolver } from './resolvers/invoice.resolver.js';
import { PaymentMethodResolver } from './resolvers/payment-method.resolver.js';
import { PayoutResolver } from './resolvers/payout.resolver.js';
import { PublisherBillingResolver } from './resolvers/publisher-billing.resolver.js';
import { UsageResolver } from './resolvers/usage.resolver.js';
import { applyPaymentIntentEvent } from './services/payment-intent-events.js';
import { hasPaymentMethod } from './services/payment-methods.js';
import { recordUsage } from './services/record-usage.js';

export const billingSubgraph: SubgraphModule = {
  name: 'billing',
  tablePrefix: 'billing_',
  entities: billingEntities,
  migrations: billingMigrations,
  buildSchema: memoize(() =>
    buildFederatedSchema({
      resolvers: [
        BillingHealthResolver,
        InvoiceResolver,
        PaymentMethodResolver,
        UsageResolver,
        PublisherBillingResolver,
        PayoutResolver,
        AllowanceResolver,
      ],
    }),
  ),
  connect(services) {
    services.ports.recordUsage = recordUsage;
    services.ports.hasPaymentMethod = hasPaymentMethod;
    services.events.on('stripe.event_received', (event, em) => applyPaymentIntentEvent(em, event));
  },
};
