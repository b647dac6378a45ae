import { checksummedAddress } from '../../../shared/x402/index.js';
import { badRequest } from '../../../shared/errors.js';
import { BILLING_MODELS, ENDPOINT_POLICIES, PUBLISHER_CATEGORIES, PUBLISHER_TYPES } from '../entities/constants.js';
import type { Publisher } from '../entities/publisher.js';
import type { PublisherInput } from '../types/inputs.js';
import { MICRO, parseMicros } from './decimal.js';
import { RESERVED_SLUGS } from './reserved-paths.js';
import { NEVER_FORWARDED } from '../proxy/headers.js';
import {
  boundedText, given, headerName, headerValue, httpUrl, MAX_LIST_ITEMS, nonNegativeInt, oneOf, optionalHttpUrl, requiredText, textList, uuidOrNull,
} from './validate.js';

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export function validSlug(value: string | null | undefined): string {
  const slug = value?.trim() ?? '';
  if (!SLUG.test(slug) || RESERVED_SLUGS.has(slug)) {
    throw badRequest('invalid_slug', 'slug must be 1-64 lower-case letters, digits and inner hyphens (and not a reserved word)');
  }
  return slug;
}

const nullableText = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

type Setter = (publisher: Publisher, input: PublisherInput) => void;

/** How each writable field is validated and stored; an update applies only the fields it names. */
const SETTERS: Partial<Record<keyof PublisherInput, Setter>> = {
  name: (p, i) => (p.name = requiredText(i.name, 'name', 200)),
  slug: (p, i) => (p.slug = validSlug(i.slug)),
  email: (p, i) => {
    const email = nullableText(i.email);
    if (email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw badRequest('invalid_email', 'email is not a valid address');
    p.email = email;
  },
  description: (p, i) => (p.description = boundedText(i.description, 'description', MAX_DESCRIPTION)),
  resourceName: (p, i) => (p.resourceName = boundedText(i.resourceName, 'resource_name', 200)),
  resourceDescription: (p, i) => (p.resourceDescription = boundedText(i.resourceDescription, 'resource_description', MAX_DESCRIPTION)),
  categories: (p, i) => (p.categories = textList(i.categories ?? [], 'categories')),
  capabilities: (p, i) => (p.capabilities = textList(i.capabilities ?? [], 'capabilities')),
  useCases: (p, i) => (p.useCases = textList(i.useCases ?? [], 'use_cases')),
  usageExamples: (p, i) => (p.usageExamples = usageExamples(i.usageExamples)),
  publisherType: (p, i) => (p.publisherType = oneOf(i.publisherType, PUBLISHER_TYPES, 'publisher_type')),
  walletAddress: (p, i) => (p.walletAddress = boundedText(i.walletAddress?.trim(), 'wallet_address', 128)),
  walletNetworkId: (p, i) => {
    const network = i.walletNetworkId?.trim() ?? '';
    if (network && !/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/.test(network)) {
      throw badRequest('invalid_wallet_network_id', 'wallet_network_id must be a CAIP-2 id such as eip155:8453');
    }
    p.walletNetworkId = network;
  },
  publisherCategory: (p, i) => (p.publisherCategory = oneOf(i.publisherCategory, PUBLISHER_CATEGORIES, 'publisher_category', 'invalid_category')),
  databaseType: (p, i) => (p.databaseType = nullableText(i.databaseType)),
  integrationType: (p, i) => (p.integrationType = nullableText(i.integrationType)),
  computeType: (p, i) => (p.computeType = nullableText(i.computeType)),
  billingModel: (p, i) => (p.billingModel = oneOf(i.billingModel, BILLING_MODELS, 'billing_model')),
  gatewayFeePercent: (p, i) => {
    const percent = parseMicros(i.gatewayFeePercent ?? '0', 'gateway_fee_percent');
    if (percent > 100n * MICRO) throw badRequest('invalid_gateway_fee_percent', 'gateway_fee_percent must be between 0 and 100');
    p.gatewayFeePercent = percent;
  },
  upstreamCostResponsePath: (p, i) => (p.upstreamCostResponsePath = nullableText(i.upstreamCostResponsePath)),
  allowedPassthroughHeaders: (p, i) =>
    (p.allowedPassthroughHeaders = textList(i.allowedPassthroughHeaders ?? [], 'allowed_passthrough_headers').map((h) =>
      forwardable(h, 'allowed_passthrough_headers').toLowerCase(),
    )),
  passthroughHeaderRewrite: (p, i) => (p.passthroughHeaderRewrite = headerMap(i.passthroughHeaderRewrite, 'passthrough_header_rewrite', forwardable)),
  requestContentType: (p, i) => (p.requestContentType = mediaType(i.requestContentType?.trim() || 'application/json')),
  upstreamHeaders: (p, i) => (p.upstreamHeaders = headerMap(i.upstreamHeaders, 'upstream_headers', headerValue)),
  ownershipTrackingEnabled: (p, i) => (p.ownershipTrackingEnabled = i.ownershipTrackingEnabled ?? false),
  resourceIdResponsePath: (p, i) => (p.resourceIdResponsePath = nullableText(i.resourceIdResponsePath)),
  resourceIdUrlPattern: (p, i) => (p.resourceIdUrlPattern = nullableText(i.resourceIdUrlPattern)),
  protectedOperations: (p, i) => (p.protectedOperations = jsonList(i.protectedOperations, 'protected_operations')),
  undocumentedEndpointPolicy: (p, i) =>
    (p.undocumentedEndpointPolicy = oneOf(i.undocumentedEndpointPolicy, ENDPOINT_POLICIES, 'undocumented_endpoint_policy')),
  projectId: (p, i) => (p.projectId = uuidOrNull(i.projectId ?? null, 'project_id')),
  branchId: (p, i) => (p.branchId = uuidOrNull(i.branchId ?? null, 'branch_id')),
  databaseName: (p, i) => (p.databaseName = nullableText(i.databaseName)),
  databaseConfig: (p, i) => (p.databaseConfig = i.databaseConfig == null ? null : jsonObject(i.databaseConfig, 'database_config')),
  apiUrl: (p, i) => (p.apiUrl = optionalHttpUrl(nullableText(i.apiUrl), 'api_url')),
  mcpEndpoint: (p, i) => (p.mcpEndpoint = optionalHttpUrl(nullableText(i.mcpEndpoint), 'mcp_endpoint')),
  a2aEndpointUrl: (p, i) => (p.a2aEndpointUrl = optionalHttpUrl(nullableText(i.a2aEndpointUrl), 'a2a_endpoint_url')),
  a2aAgentCard: (p, i) => (p.a2aAgentCard = i.a2aAgentCard == null ? null : jsonObject(i.a2aAgentCard, 'a2a_agent_card')),
  mcpCapabilities: (p, i) => (p.mcpCapabilities = i.mcpCapabilities == null ? null : jsonObject(i.mcpCapabilities, 'mcp_capabilities')),
  acceptedAssets: (p, i) => (p.acceptedAssets = jsonList(i.acceptedAssets, 'accepted_assets')),
  tokenExchangeUrl: (p, i) => (p.tokenExchangeUrl = optionalHttpUrl(nullableText(i.tokenExchangeUrl), 'token_exchange_url')),
  tokenExchangeMethod: (p, i) => (p.tokenExchangeMethod = i.tokenExchangeMethod == null ? null : oneOf(i.tokenExchangeMethod.toUpperCase(), ['GET', 'POST'], 'token_exchange_method')),
  tokenExchangeMode: (p, i) => (p.tokenExchangeMode = i.tokenExchangeMode == null ? null : oneOf(i.tokenExchangeMode, ['header', 'body', 'query'], 'token_exchange_mode')),
  tokenCacheTtlSeconds: (p, i) => (p.tokenCacheTtlSeconds = nonNegativeInt(i.tokenCacheTtlSeconds ?? null, 'token_cache_ttl_seconds')),
  tokenResponseField: (p, i) => (p.tokenResponseField = nullableText(i.tokenResponseField)),
  apiKeyHeader: (p, i) => {
    const name = nullableText(i.apiKeyHeader);
    p.apiKeyHeader = name === null ? null : headerName(name, 'api_key_header');
  },
  apiKeyQueryParam: (p, i) => (p.apiKeyQueryParam = nullableText(i.apiKeyQueryParam)),
  oauthProviderId: (p, i) => (p.oauthProviderId = uuidOrNull(i.oauthProviderId ?? null, 'oauth_provider_id')),
  requiresUserOauth: (p, i) => (p.requiresUserOauth = i.requiresUserOauth ?? false),
  routing: (p, i) => (p.routing = i.routing == null ? null : jsonObject(i.routing, 'routing')),
  isActive: (p, i) => void (p.isActive = i.isActive ?? p.isActive),
};

/** Fields that can never be cleared to null on create or update. */
const NOT_NULL: (keyof PublisherInput)[] = ['name', 'slug', 'publisherCategory', 'publisherType', 'billingModel', 'undocumentedEndpointPolicy'];

/** Applies the given fields of `input` to `publisher`, validating each; on create every field is applied. */
export function applyPublisherFields(publisher: Publisher, input: PublisherInput, creating: boolean): void {
  for (const [key, set] of Object.entries(SETTERS) as [keyof PublisherInput, Setter][]) {
    const present = given(input, key);
    if (!present && !creating) continue;
    if (!present && !NOT_NULL.includes(key)) continue;
    if (input[key] === null && NOT_NULL.includes(key)) {
      throw badRequest(key === 'publisherCategory' ? 'invalid_category' : 'invalid_input', `${snake(key)} cannot be null`);
    }
    if (!present && creating && ['publisherType', 'billingModel', 'undocumentedEndpointPolicy'].includes(key)) continue;
    set(publisher, input);
  }
  if (publisher.apiUrl) httpUrl(publisher.apiUrl, 'api_url');
  if (publisher.walletAddress && publisher.walletNetworkId.startsWith('eip155:')) publisher.walletAddress = evmAddress(publisher.walletAddress);
}

const MAX_DESCRIPTION = 20_000;
const MAX_USAGE_EXAMPLES = 50;
/** A payee address as wallets sign for it (EIP-55 checksummed); a wrong checksum is refused, as every payer's wallet would refuse it. */
function evmAddress(value: string): string {
  const address = checksummedAddress(value);
  if (address === null) {
    throw badRequest(
      'invalid_wallet_address',
      'wallet_address must be a 0x address of 40 hex digits on an eip155 network, with a right EIP-55 checksum (or in lower case)',
    );
  }
  return address;
}

function usageExamples(examples: PublisherInput['usageExamples']): Publisher['usageExamples'] {
  if (examples == null) return null;
  if (examples.length > MAX_USAGE_EXAMPLES) throw badRequest('invalid_usage_examples', `usage_examples holds at most ${MAX_USAGE_EXAMPLES} examples`);
  return examples.map(({ title, description, curl }) => ({
    title: boundedText(title, 'usage_examples', 200),
    description: boundedText(description, 'usage_examples', MAX_DESCRIPTION),
    curl: boundedText(curl, 'usage_examples', MAX_DESCRIPTION),
  }));
}

/** A header map (name to value, or name to name): every name a header name, every value checked by `value`. */
function headerMap(input: unknown, field: string, value: (item: unknown, field: string) => string): Record<string, string> {
  const entries = Object.entries(jsonObject(input, field));
  if (entries.length > MAX_LIST_ITEMS) throw badRequest('invalid_input', `${field} holds at most ${MAX_LIST_ITEMS} headers`);
  return Object.fromEntries(entries.map(([name, item]) => [forwardable(name, field), value(item, field)]));
}

/**
 * A header the platform may send upstream. Credentials and connection headers never go (the
 * proxy drops them whatever a publisher says), so naming one is an error here, not a silent no-op.
 */
function forwardable(name: unknown, field: string): string {
  if (NEVER_FORWARDED.has(headerName(name, field).toLowerCase())) {
    throw badRequest(
      'header_not_forwarded',
      `${field}: ${String(name)} is never sent upstream; an upstream credential goes in upstream_api_key with api_key_header (or token exchange)`,
    );
  }
  return name as string;
}

function mediaType(value: string): string {
  if (value.length > 200 || !/^[\w.+-]+\/[\w.+-]+(?:[ \t]*;[\t\x20-\x7e]*)?$/.test(value)) {
    throw badRequest('invalid_request_content_type', 'request_content_type must be a media type such as application/json');
  }
  return value;
}

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

function jsonObject(value: unknown, field: string): Record<string, unknown> {
  if (value == null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('invalid_input', `${field} must be an object`);
  return value as Record<string, unknown>;
}

function jsonList(value: unknown, field: string): unknown[] | null {
  if (value == null) return null;
  if (!Array.isArray(value)) throw badRequest('invalid_input', `${field} must be a list`);
  return value;
}

