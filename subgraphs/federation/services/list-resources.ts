import type { FilterQuery } from '@mikro-orm/core';
import type { RequestContext } from '../../../shared/context.js';
import { notFound } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { pageOf } from '../../../shared/paging.js';
import { FederatedResource } from '../entities/resource.js';
import type { FederatedResourceListInput } from '../types/inputs.js';
import { publisherIdOfSlug } from './publishers.js';

/** GET /federation: resources by publisher, type and status (default `active`), newest first. */
export async function listFederatedResources(context: RequestContext, input: FederatedResourceListInput): Promise<FederatedResource[]> {
  const { limit, offset } = pageOf(input);
  const where: FilterQuery<FederatedResource> = { status: input.status ?? 'active' };
  if (input.resourceType) where.resourceType = input.resourceType;
  if (input.publisherSlug) {
    const publisherId = await publisherIdOfSlug(context, input.publisherSlug);
    if (!publisherId) return [];
    where.publisherId = publisherId;
  }
  return context.em.find(FederatedResource, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset });
}

/** GET /federation/{id}: any status; a malformed id is as unknown as a missing one (404). */
export async function getFederatedResource(context: RequestContext, id: string): Promise<FederatedResource> {
  const resource = isUuid(id) ? await context.em.findOne(FederatedResource, { id }) : null;
  if (!resource) throw notFound('Federated resource');
  return resource;
}
