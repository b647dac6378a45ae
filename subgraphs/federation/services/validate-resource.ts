import { badRequest } from '../../../shared/errors.js';
import type { UpsertFederatedResourceInput } from '../types/inputs.js';

const RESOURCE_TYPE = /^[a-z0-9][a-z0-9_.:-]{0,63}$/;
const STATUS = /^[a-z][a-z0-9_]{0,31}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;
const MAX_EXTERNAL_ID = 256;
const MAX_TITLE = 500;
const MAX_URL = 2048;

export interface ResourceDocument {
  status: string;
  title: string | null;
  url: string | null;
  data: unknown;
}

export const isResourceType = (value: string) => RESOURCE_TYPE.test(value);
export const isExternalId = (value: string) => value.length > 0 && value.length <= MAX_EXTERNAL_ID && !CONTROL.test(value);

function checkedUrl(url: string | null | undefined): string | null {
  if (url === undefined || url === null) return null;
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // reported below
  }
  if (url.length > MAX_URL || !parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw badRequest('invalid_url', `url must be an http(s) address of at most ${MAX_URL} characters`);
  }
  return url;
}

/** The key and the document of an upsert, each field checked; `data` is capped at `maxDataBytes` of JSON. */
export function validateResourceInput(input: UpsertFederatedResourceInput, maxDataBytes: number) {
  if (!isResourceType(input.resourceType)) {
    throw badRequest('invalid_resource_type', 'resource_type must be 1-64 lower-case letters, digits, and . _ : -, starting with a letter or digit');
  }
  if (!isExternalId(input.externalId)) {
    throw badRequest('invalid_external_id', `external_id must be 1-${MAX_EXTERNAL_ID} characters without control characters`);
  }
  const status = input.status ?? 'active';
  if (!STATUS.test(status)) throw badRequest('invalid_status', 'status must be 1-32 lower-case letters, digits or _, starting with a letter');
  const title = input.title ?? null;
  if (title !== null && (title.length > MAX_TITLE || CONTROL.test(title))) {
    throw badRequest('invalid_title', `title must be at most ${MAX_TITLE} characters without control characters`);
  }
  const data = input.data === undefined || input.data === null ? {} : input.data;
  if (Buffer.byteLength(JSON.stringify(data)) > maxDataBytes) {
    throw badRequest('data_too_large', `data must be at most ${maxDataBytes} bytes of JSON`);
  }
  const document: ResourceDocument = { status, title, url: checkedUrl(input.url), data };
  return { resourceType: input.resourceType, externalId: input.externalId, document };
}
