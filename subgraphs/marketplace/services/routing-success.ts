import type { RequestContext } from '../../../shared/context.js';
import type { PublisherSuccessRate } from '../../../shared/ports.js';
import type { Publisher } from '../entities/publisher.js';

/** The task type a publisher's `routing` names (`{"task_type": "code"}`), if any. */
export function routingTaskOf(publisher: Publisher): string | null {
  const routing = publisher.routing as Record<string, unknown> | null;
  const task = routing?.task_type ?? routing?.taskType;
  return typeof task === 'string' ? task : null;
}

/** Each publisher's community success rate on its routing task, asked of evaluation (none where it is not loaded). */
export async function routingSuccessOf(context: RequestContext, publishers: Publisher[]): Promise<Map<string, PublisherSuccessRate>> {
  const asks = publishers.flatMap((publisher) => {
    const taskType = routingTaskOf(publisher);
    return taskType ? [{ publisherSlug: publisher.slug, taskType }] : [];
  });
  const rates = asks.length > 0 ? ((await context.services.ports.publisherSuccessRates?.(context.em, asks)) ?? []) : [];
  return new Map(rates.map((rate) => [rate.publisherSlug, rate]));
}

export const successReason = (rate: PublisherSuccessRate) =>
  `community success ${Math.round(rate.successRate * 100)}% on ${rate.taskType} over ${rate.signals} signals`;
