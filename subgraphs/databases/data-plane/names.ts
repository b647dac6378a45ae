import { randomBytes } from 'node:crypto';
import { badRequest } from '../../../shared/errors.js';

/** A name users give (a database, a branch): a plain PostgreSQL identifier, so no quoting surprises. */
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function checkedIdentifier(value: string, what: string, code = 'invalid_name'): string {
  if (!IDENTIFIER.test(value)) {
    throw badRequest(code, `${what} must be 1 to 63 lower-case letters, digits or _, not starting with a digit`);
  }
  return value;
}

/** A branch name: letters, digits, `-`, `_`, `/` and `.` (as git branch names go), up to 100 characters. */
export function checkedBranchName(value: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/.test(value)) {
    throw badRequest('invalid_branch_name', 'A branch name is 1 to 100 letters, digits, ".", "_", "-" or "/", starting with a letter or digit');
  }
  return value;
}

/** Names on the data plane are generated, never the user's: `<prefix><kind>_<hex>`, always valid identifiers. */
export const physicalName = (prefix: string, kind: 'p' | 'd' | 'r') => `${prefix}${kind}_${randomBytes(8).toString('hex')}`;

/** Quotes an identifier for SQL the platform writes (the names it generates need none, but never trust that). */
export const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

export const quoteLiteral = (value: string) => `'${value.replace(/'/g, "''")}'`;

export const generatePassword = () => randomBytes(24).toString('base64url');
