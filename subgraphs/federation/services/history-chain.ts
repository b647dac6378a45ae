import type { EntityManager } from '@mikro-orm/postgresql';
import { sha256Hex } from '../../../shared/crypto.js';
import type { HistoryOperation } from '../entities/history-entry.js';
import { canonicalJson } from '../../../shared/canonical-json.js';

/** What an entry's hash covers: everything it says, in a fixed canonical form. */
export interface ChainedContent {
  publisherId: string;
  sequence: number;
  operation: HistoryOperation;
  resourceId: string;
  resourceType: string;
  externalId: string;
  before: unknown;
  after: unknown;
  actorId: string;
  createdAt: string;
}

/** sha256(previous hash ‖ canonical content), hex. The first entry's previous hash is ''. */
export const entryHash = (previousHash: string, content: ChainedContent) => sha256Hex(previousHash + canonicalJson(content));

export interface ChainHead {
  publisherId: string;
  lastSequence: number;
  lastHash: string;
}

/**
 * Locks the publisher's chain head until the transaction ends: every change of that publisher
 * (and its sequence number) waits here for the one before, so numbers have no gaps and no twins.
 */
export async function lockChain(em: EntityManager, publisherId: string): Promise<ChainHead> {
  await em.execute(`insert into fed_chain_head (publisher_id, last_sequence, last_hash) values (?, 0, '') on conflict do nothing`, [publisherId]);
  const [head] = await em.execute(`select last_sequence, last_hash from fed_chain_head where publisher_id = ? for update`, [publisherId]);
  return { publisherId, lastSequence: Number(head.last_sequence), lastHash: head.last_hash };
}

export type Change = Omit<ChainedContent, 'publisherId' | 'sequence' | 'createdAt'>;

/** Appends the next entry of a locked chain and moves its head, in the caller's transaction. */
export async function appendHistory(em: EntityManager, head: ChainHead, change: Change): Promise<void> {
  const content: ChainedContent = { ...change, publisherId: head.publisherId, sequence: head.lastSequence + 1, createdAt: new Date().toISOString() };
  const hash = entryHash(head.lastHash, content);
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  await em.execute(
    `insert into fed_history (id, publisher_id, sequence, operation, resource_id, resource_type, external_id, before, after, actor_id, created_at, previous_hash, hash)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?)`,
    [content.publisherId, content.sequence, content.operation, content.resourceId, content.resourceType, content.externalId,
      json(content.before), json(content.after), content.actorId, content.createdAt, head.lastHash, hash],
  );
  await em.execute(`update fed_chain_head set last_sequence = ?, last_hash = ? where publisher_id = ?`, [content.sequence, hash, head.publisherId]);
}
