import type { RequestContext } from '../../../shared/context.js';
import { badRequest, conflict } from '../../../shared/errors.js';
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../../shared/crypto.js';
import { canonicalJson } from '../../../shared/canonical-json.js';

const KEY = /^[\x21-\x7e]{1,255}$/;
/** A first attempt still unanswered after this long died with its process: the key is taken over. */
const ABANDONED_AFTER_SECONDS = 120;

/** A uuid derived from the key: the work of a retried attempt names the same rows and ledger keys as the first. */
function idOf(scope: string, key: string): string {
  const hex = sha256Hex(`idempotency:${scope}:${key}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Stored answers come back from JSON: timestamps (fields named …At) become dates again. */
const revive = (text: string): unknown =>
  JSON.parse(text, (key, item) => (typeof item === 'string' && key.endsWith('At') && !Number.isNaN(Date.parse(item)) ? new Date(item) : item));

const SCOPE_OF = (context: RequestContext, operation: string) =>
  `${context.operator ? 'operator' : (context.identity?.userId ?? 'anonymous')}:${operation}`;

/**
 * Runs `work` once per Idempotency-Key: the key is claimed first (a row per caller, operation and
 * key), the answer stored with it; the same key again replays that answer, with another input it
 * is 409 `idempotency_key_reused`, and while the first is still running 409 `idempotency_key_in_use`.
 * A failed first attempt frees the key, so the caller can retry it. A first attempt whose process
 * died is taken over after ABANDONED_AFTER_SECONDS: `work` is given an id derived from the key
 * (random without one), so it finds what that attempt committed instead of doing it twice.
 */
export async function idempotent<T>(
  context: RequestContext,
  operation: string,
  key: string | null | undefined,
  input: unknown,
  work: (id: string) => Promise<T>,
): Promise<T> {
  if (key === null || key === undefined || key === '') return work(randomUUID());
  if (!KEY.test(key)) throw badRequest('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
  const scope = SCOPE_OF(context, operation);
  const hash = sha256Hex(canonicalJson(input));
  const em = context.em;
  const claimed = await em.execute(
    `insert into billing_idempotent_request (scope, key, request_hash, response, created_at) values (?, ?, ?, null, now())
     on conflict (scope, key) do update set created_at = now()
       where billing_idempotent_request.response is null and billing_idempotent_request.request_hash = excluded.request_hash
         and billing_idempotent_request.created_at < now() - make_interval(secs => ?)
     returning key`,
    [scope, key, hash, ABANDONED_AFTER_SECONDS],
  );
  if (claimed.length === 0) {
    const [row] = await em.execute(`select request_hash, response::text as response from billing_idempotent_request where scope = ? and key = ?`, [scope, key]);
    if (!row || row.request_hash !== hash) {
      throw conflict('idempotency_key_reused', 'This Idempotency-Key was used with another request; use a new key for a new request');
    }
    if (row.response === null) throw conflict('idempotency_key_in_use', 'The first request with this Idempotency-Key is still running; retry shortly');
    return revive(row.response) as T;
  }
  let answer: T;
  try {
    answer = await work(idOf(scope, key));
  } catch (error) {
    await em.execute(`delete from billing_idempotent_request where scope = ? and key = ?`, [scope, key]);
    throw error;
  }
  await em.execute(`update billing_idempotent_request set response = ?::jsonb where scope = ? and key = ?`, [canonicalJson(answer), scope, key]);
  return answer;
}
