import { badRequest } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { parsePositiveMoney } from '../../../shared/money.js';
import { isUnstorableText } from '../../../shared/text.js';

/** At most a million dollars in one charge, refund, slash or payout. */
const MAX_AMOUNT = 1_000_000_000_000n;
const MAX_TEXT = 500;
const MAX_METADATA_BYTES = 8_192;

export function amountOf(value: unknown, field = 'amount'): bigint {
  const amount = parsePositiveMoney(value, field);
  if (amount > MAX_AMOUNT) throw badRequest('invalid_amount', `${field} must be at most 1000000`);
  return amount;
}

export function textOf(value: string | null | undefined, field: string, required: boolean): string {
  const text = value?.trim() ?? '';
  if (required && !text) throw badRequest('invalid_input', `${field} is required`);
  if (text.length > MAX_TEXT || isUnstorableText(text)) throw badRequest('invalid_input', `${field} must be text of at most ${MAX_TEXT} characters`);
  return text;
}

export function payerOf(value: string | null | undefined): string {
  if (!value || !isUuid(value)) throw badRequest('invalid_payer', 'payer_id must be the payer’s user id (a uuid)');
  return value.toLowerCase();
}

export function metadataOf(value: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (value === null || value === undefined) return null;
  // Text PostgreSQL cannot store (U+0000, a lone surrogate) never gets here: the request guards refuse it in any variable.
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_METADATA_BYTES) {
    throw badRequest('invalid_metadata', `metadata must be a JSON object of at most ${MAX_METADATA_BYTES} bytes`);
  }
  return value;
}
