import type { EntityManager } from '@mikro-orm/postgresql';
import { requireIdentity, type RequestContext } from '../../../shared/context.js';
import { retriedTransaction } from '../../../shared/db/retried-transaction.js';
import { badRequest, forbidden, notFound } from '../../../shared/errors.js';
import { FederatedResource } from '../entities/resource.js';
import { appendHistory, lockChain } from './history-chain.js';
import { publishersOfCaller } from './publishers.js';
import { documentOf } from './upsert-resource.js';
import { isExternalId, isResourceType } from './validate-resource.js';

const resourceNotFound = () => notFound('Federated resource');

/**
 * DELETE /federation/{resource_type}/{external_id}: removes the caller's resource (its history
 * stays, with a `delete` entry); 404 when no publisher has it, 403 when only others do.
 */
export async function deleteFederatedResource(
  context: RequestContext,
  resourceType: string,
  externalId: string,
  publisherSlug: string | null | undefined,
): Promise<boolean> {
  const { userId } = requireIdentity(context);
  if (!isResourceType(resourceType) || !isExternalId(externalId)) throw resourceNotFound();
  // Asked once, before the transaction: in split mode the marketplace answers over HTTP.
  const owned = (await publishersOfCaller(context, context.em)).filter((publisher) => !publisherSlug || publisher.slug === publisherSlug);
  return retriedTransaction(context.em, async (tx) => {
    const em = tx as EntityManager;
    const holders = await em.find(FederatedResource, { resourceType, externalId }, { fields: ['id', 'publisherId'] });
    if (holders.length === 0) throw resourceNotFound();
    const mine = owned.filter((publisher) => holders.some((holder) => holder.publisherId === publisher.id));
    if (mine.length === 0) throw forbidden('Only the owning publisher can delete this resource', 'not_publisher_owner');
    if (mine.length > 1) throw badRequest('publisher_slug_required', 'Several of the organization’s publishers have this resource: name one in publisher_slug');
    const head = await lockChain(em, mine[0]!.id);
    const resource = await em.findOne(FederatedResource, { publisherId: head.publisherId, resourceType, externalId }, { refresh: true });
    if (!resource) throw resourceNotFound();
    const before = documentOf(resource);
    await em.remove(resource).flush();
    await appendHistory(em, head, { operation: 'delete', resourceId: resource.id, resourceType, externalId, before, after: null, actorId: userId });
    return true;
  });
}
