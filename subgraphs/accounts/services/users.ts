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
