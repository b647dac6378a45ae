import type { EntityManager } from '@mikro-orm/postgresql';
import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { retriedTransaction } from '../../../shared/db/retried-transaction.js';
import { FederatedResource } from '../entities/resource.js';
import type { UpsertFederatedResourceInput } from '../types/inputs.js';
import { canonicalJson } from '../../../shared/canonical-json.js';
import { appendHistory, lockChain } from './history-chain.js';
import { publisherForWrite } from './publishers.js';
import { validateResourceInput, type ResourceDocument } from './validate-resource.js';

export const documentOf = (resource: FederatedResource): ResourceDocument => ({
  status: resource.status,
  title: resource.title,
  url: resource.url,
  data: resource.data,
});

/**
 * POST /federation: inserts or updates the caller's resource by (publisher, type, external id),
 * keeping its id, and appends the change to the publisher's history in the same transaction.
 * An upsert that changes nothing appends nothing (a replay is harmless).
 */
export async function upsertFederatedResource(context: RequestContext, input: UpsertFederatedResourceInput): Promise<FederatedResource> {
  const { userId } = requireIdentity(context);
  const { resourceType, externalId, document } = validateResourceInput(input, context.services.config.federation.maxDataBytes);
  // Asked once, before the transaction: in split mode the marketplace answers over HTTP.
  const publisher = await publisherForWrite(context, context.em, input.publisherSlug);
  return retriedTransaction(context.em, async (tx) => {
    const em = tx as EntityManager;
    const head = await lockChain(em, publisher.id);
    const existing = await em.findOne(FederatedResource, { publisherId: publisher.id, resourceType, externalId });
    const before = existing ? documentOf(existing) : null;
    if (before && canonicalJson(before) === canonicalJson(document)) return existing!;
    const resource = existing ?? Object.assign(new FederatedResource(), { publisherId: publisher.id, resourceType, externalId });
    Object.assign(resource, document, { updatedAt: new Date() });
    em.persist(resource);
    await em.flush();
    await appendHistory(em, head, {
      operation: existing ? 'update' : 'insert',
      resourceId: resource.id,
      resourceType,
      externalId,
      before,
      after: document,
      actorId: userId,
    });
    return resource;
  });
}
