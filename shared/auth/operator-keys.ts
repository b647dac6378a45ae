import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (secret: string) => createHash('sha256').update(secret).digest();

/**
 * Whether `token` is one of the operator's secrets (ADMIN_API_KEYS). Both sides are hashed to a
 * fixed length and compared in constant time, against every key, so neither the length nor the
 * position of a match shows in the time taken.
 */
export function isOperatorKey(keys: readonly string[], token: string): boolean {
  const offered = digest(token);
  let matched = false;
  for (const key of keys) matched = timingSafeEqual(digest(key), offered) || matched;
  return matched;
}
