import type { RequestContext } from '../../../shared/context.js';
import type { PublisherChargeInfo, PublisherEarnings } from '../types/results.js';
import { chargeInfoOf, findCharge } from './charge-views.js';
import { earningsView, readEarnings } from './earnings.js';
import { managedPublisher, MANAGERS_OR_OPERATOR } from './publisher-access.js';

export async function readPublisherCharge(context: RequestContext, slug: string, chargeId: string): Promise<PublisherChargeInfo> {
  const publisher = await managedPublisher(context, slug, MANAGERS_OR_OPERATOR);
  return chargeInfoOf(await findCharge(context.em, publisher.publisherId, chargeId));
}

export async function readPublisherEarnings(context: RequestContext, slug: string): Promise<PublisherEarnings> {
  const publisher = await managedPublisher(context, slug, MANAGERS_OR_OPERATOR);
  return earningsView(publisher.publisherId, await readEarnings(context.em, publisher.publisherId, context.services.config.payouts.holdDays));
}
