import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict } from '../../../shared/errors.js';
import { UserAccount } from '../entities/user.js';

export const loadUser = (em: EntityManager, userId: string) => em.findOne(UserAccount, userId);

export async function assertEmailFree(em: EntityManager, email: string, exceptUserId?: string): Promise<void> {
  const existing = await em.findOne(UserAccount, { email }, { fields: ['id'] });
  if (existing && existing.id !== exceptUserId) throw conflict('email_taken', 'This e-mail address is already registered');
}

/** Two sign-ups racing for one address: the database's unique index decides, the loser gets 409. */
export async function withUniqueEmail<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw conflict('email_taken', 'This e-mail address is already registered');
    }
    throw error;
  }
}

/**
 * Whether the user's address is verified, read under a share lock on the user's row: a
 * verification not yet committed holds that row, so this waits for it instead of missing it.
 */
export async function emailVerifiedNow(em: EntityManager, userId: string): Promise<boolean> {
  const [row] = await em.execute<{ email_verified: boolean }[]>(`select email_verified from account_user where id = ? for share`, [userId]);
  return row?.email_verified === true;
}
