import type { FilterQuery } from '@mikro-orm/core';
import type { RequestContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors.js';
import { pageOf } from '../../../shared/paging.js';
import { FederationHistoryEntry, HISTORY_OPERATIONS, type HistoryOperation } from '../entities/history-entry.js';
import type { FederationHistoryInput } from '../types/inputs.js';
import { publisherIdOfSlug } from './publishers.js';

export function checkedOperation(operation: string | null | undefined): HistoryOperation | undefined {
  if (operation === undefined || operation === null) return undefined;
  if (!(HISTORY_OPERATIONS as readonly string[]).includes(operation)) {
    throw badRequest('invalid_operation', `operation must be one of ${HISTORY_OPERATIONS.join(', ')}`);
  }
  return operation as HistoryOperation;
}

/** GET /federation/history: entries by publisher, type, external id and operation, newest first. */
export async function listFederationHistory(context: RequestContext, input: FederationHistoryInput): Promise<FederationHistoryEntry[]> {
  const { limit, offset } = pageOf(input);
  const where: FilterQuery<FederationHistoryEntry> = {};
  const operation = checkedOperation(input.operation);
  if (operation) where.operation = operation;
  if (input.resourceType) where.resourceType = input.resourceType;
  if (input.externalId) where.externalId = input.externalId;
  if (input.publisherSlug) {
    const publisherId = await publisherIdOfSlug(context, input.publisherSlug);
    if (!publisherId) return [];
    where.publisherId = publisherId;
    return context.em.find(FederationHistoryEntry, where, { orderBy: { sequence: 'desc' }, limit, offset });
  }
  return context.em.find(FederationHistoryEntry, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset });
}
