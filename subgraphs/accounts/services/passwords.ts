import { hash, verify, Algorithm } from '@node-rs/argon2';
import { badRequest } from '../../../shared/errors.js';
import { COMMON_PASSWORDS } from './common-passwords.js';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;

/** OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane. */
const ARGON2_OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function assertStrongPassword(password: string, email?: string | null): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw badRequest('weak_password', `Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw badRequest('weak_password', `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);
  }
  const lowered = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lowered) || /^(.)\1+$/.test(password)) {
    throw badRequest('weak_password', 'Password is too common; choose a less guessable one');
  }
  if (email && lowered.includes(email.split('@')[0]!.toLowerCase()) && email.split('@')[0]!.length >= 4) {
    throw badRequest('weak_password', 'Password must not contain your e-mail name');
  }
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** A real hash to verify against when the account does not exist, so both answers take the same time. */
const DECOY_HASH = hashPassword('decoy password that never matches anything');

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await DECOY_HASH, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
