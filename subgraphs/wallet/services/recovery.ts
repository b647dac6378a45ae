import { spendOrRefuse } from '../../../shared/rate-limit.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { randomUppercaseCode, sha256Hex } from '../../../shared/crypto.js';
import { AppError, badRequest, unauthorized } from '../../../shared/errors.js';
import type { RecoveredAccount, RecoveryCode } from '../types/results.js';

const CODE_LENGTH = 24;
const CODE_FORMAT = /^[A-Z0-9]{24}$/;
/** Guessing a 24-character code is hopeless anyway; the limit keeps the attempts visible and cheap. */
const ATTEMPTS_PER_ADDRESS = { limit: 10, windowSeconds: 900 };

async function storeNewCode(em: EntityManager, userId: string): Promise<string> {
  const code = randomUppercaseCode(CODE_LENGTH);
  await em.execute(
    `insert into wallet_recovery_code (user_id, code_hash, created_at) values (?, ?, now())
     on conflict (user_id) do update set code_hash = excluded.code_hash, created_at = excluded.created_at`,
    [userId, sha256Hex(code)],
  );
  return code;
}

/** Issues the account's recovery code (shown once, stored hashed); a new request replaces the old code. */
export async function requestRecoveryCode(context: RequestContext, email: string): Promise<RecoveryCode> {
  const identity = requireIdentity(context);
  const given = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (!given || !identity.email || identity.email.toLowerCase() !== given) {
    throw badRequest('email_mismatch', "The e-mail must be the account's own address");
  }
  return { recoveryCode: await storeNewCode(context.em, identity.userId) };
}

/** No Bearer: the code alone proves the account. The API key and the code both rotate; old ones stop working. */
export async function recoverAccount(context: RequestContext, rawCode: string): Promise<RecoveredAccount> {
  await spendOrRefuse(context.services.rateLimiter, `recover:${context.ip}`, ATTEMPTS_PER_ADDRESS.limit, ATTEMPTS_PER_ADDRESS.windowSeconds);
  const code = typeof rawCode === 'string' ? rawCode.trim() : '';
  if (!CODE_FORMAT.test(code)) {
    throw badRequest('invalid_recovery_code', 'A recovery code is 24 uppercase letters and digits');
  }
  const rotateApiKey = context.services.ports.rotateApiKey;
  if (!rotateApiKey) throw new AppError(503, 'recovery_unavailable', 'Account recovery is not available');
  return context.em.transactional(async (tx) => {
    const em = tx as EntityManager;
    const [row] = await em.execute('delete from wallet_recovery_code where code_hash = ? returning user_id', [sha256Hex(code)]);
    if (!row) throw unauthorized('Invalid recovery code', 'invalid_recovery_code');
    // In split mode accounts rotates the key in its own transaction: should ours then fail, the code
    // is not spent (this rolls back) and a retry rotates again, so the caller is never left keyless.
    const rotated = await rotateApiKey(em, row.user_id);
    if (!rotated) throw unauthorized('Invalid recovery code', 'invalid_recovery_code');
    return { userId: row.user_id, apiKey: rotated.apiKey, recoveryCode: await storeNewCode(em, row.user_id) };
  });
}
