import type { RequestContext } from '../../../shared/context.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import type { HistoryChainVerification } from '../types/results.js';
import { publisherReference } from '../types/publisher-ref.js';
import { entryHash } from './history-chain.js';
import { publisherIdOfSlug } from './publishers.js';
import { limitHeavyRead } from './read-limits.js';

const BATCH = 1000;

interface Row {
  sequence: string;
  operation: any;
  resource_id: string;
  resource_type: string;
  external_id: string;
  before: unknown;
  after: unknown;
  actor_id: string;
  created_at: Date;
  previous_hash: string;
  hash: string;
}

/**
 * GET /federation/history/verify: walks the publisher's chain from sequence 1, recomputing every
 * hash; the first entry that is missing, altered or not linked to the one before breaks it. A
 * chain cut short at its end is caught by the chain head, which remembers the last sequence and hash.
 */
export async function verifyFederationHistory(context: RequestContext, publisherSlug: string | null | undefined): Promise<HistoryChainVerification> {
  if (!publisherSlug) throw badRequest('missing_publisher_slug', 'publisher_slug is required');
  await limitHeavyRead(context, 'verify');
  const publisherId = await publisherIdOfSlug(context, publisherSlug);
  if (!publisherId) throw notFound('Publisher');
  const em = context.em;
  const [head] = await em.execute(`select last_sequence, last_hash from fed_chain_head where publisher_id = ?`, [publisherId]);
  const lastSequence = head ? Number(head.last_sequence) : 0;
  let expected = 1;
  let previousHash = '';
  let firstBroken: number | null = null;
  for (;;) {
    const rows: Row[] = await em.execute(
      `select sequence, operation, resource_id, resource_type, external_id, before, after, actor_id, created_at, previous_hash, hash
       from fed_history where publisher_id = ? and sequence >= ? order by sequence limit ?`,
      [publisherId, expected, BATCH],
    );
    for (const row of rows) {
      const sequence = Number(row.sequence);
      if (sequence !== expected) firstBroken = expected;
      else {
        const content = {
          publisherId, sequence, operation: row.operation, resourceId: row.resource_id, resourceType: row.resource_type,
          externalId: row.external_id, before: row.before, after: row.after, actorId: row.actor_id, createdAt: new Date(row.created_at).toISOString(),
        };
        if (row.previous_hash !== previousHash || entryHash(previousHash, content) !== row.hash) firstBroken = sequence;
      }
      if (firstBroken !== null) break;
      previousHash = row.hash;
      expected++;
    }
    if (firstBroken !== null || rows.length < BATCH) break;
  }
  const entries = expected - 1;
  if (firstBroken === null && entries !== lastSequence) firstBroken = Math.min(entries, lastSequence) + 1;
  else if (firstBroken === null && previousHash !== (head?.last_hash ?? '')) firstBroken = lastSequence;
  return { publisher: publisherReference(publisherId), intact: firstBroken === null, entries, lastSequence, firstBrokenSequence: firstBroken };
}
