import { z } from 'zod';
import { badRequest } from '../../../shared/errors.js';

const emailSchema = z.string().trim().max(254).email();

/** Valid, trimmed and lower-cased, or a 400 `invalid_email`. */
export function normalizeEmail(email: string): string {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) throw badRequest('invalid_email', 'A valid e-mail address is required');
  return parsed.data.toLowerCase();
}

export function normalizeName(name: string | null | undefined): string | null {
  if (name === null || name === undefined) return null;
  const trimmed = name.trim();
  if (trimmed.length === 0) return null;
  if (trimmed.length > 120) throw badRequest('invalid_name', 'Name must be at most 120 characters');
  return trimmed;
}
