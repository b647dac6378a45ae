import { badRequest } from '../../../shared/errors.js';
import { BILLING_MODELS, ENDPOINT_POLICIES, PUBLISHER_CATEGORIES, PUBLISHER_TYPES } from '../entities/constants.js';
import type { Publisher } from '../entities/publisher.js';
import type { PublisherInput } from '../types/inputs.js';
import { MICRO, parseMicros } from './decimal.js';
import { given, httpUrl, nonNegativeInt, oneOf, optionalHttpUrl, requiredText, textList, uuidOrNull } from './validate.js';

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** Paths under /publishers/ that are routes of their own, not publishers. */
const RESERVED_SLUGS = new Set(['suggest', 'estimate', 'logo', 'search']);

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
  description: (p, i) => (p.description = i.description ?? ''),
  resourceName: (p, i) => (p.resourceName = i.resourceName ?? ''),
  resourceDescription: (p, i) => (p.resourceDescription = i.resourceDescription ?? ''),
  categories: (p, i) => (p.categories = textList(i.categories ?? [], 'categories')),
  capabilities: (p, i) => (p.capabilities = textList(i.capabilities ?? [], 'capabilities')),
  useCases: (p, i) => (p.useCases = textList(i.useCases ?? [], 'use_cases')),
  usageExamples: (p, i) => (p.usageExamples = i.usageExamples?.map(({ title, description, curl }) => ({ title, description, curl })) ?? null),
  publisherType: (p, i) => (p.publisherType = oneOf(i.publisherType, PUBLISHER_TYPES, 'publisher_type')),
  walletAddress: (p, i) => (p.walletAddress = i.walletAddress?.trim() ?? ''),
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
    (p.allowedPassthroughHeaders = textList(i.allowedPassthroughHeaders ?? [], 'allowed_passthrough_headers').map((h) => h.toLowerCase())),
  passthroughHeaderRewrite: (p, i) => (p.passthroughHeaderRewrite = jsonObject(i.passthroughHeaderRewrite, 'passthrough_header_rewrite')),
  requestContentType: (p, i) => (p.requestContentType = i.requestContentType?.trim() || 'application/json'),
  upstreamHeaders: (p, i) => (p.upstreamHeaders = jsonObject(i.upstreamHeaders, 'upstream_headers')),
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
  apiKeyHeader: (p, i) => (p.apiKeyHeader = headerName(nullableText(i.apiKeyHeader))),
  apiKeyQueryParam: (p, i) => (p.apiKeyQueryParam = nullableText(i.apiKeyQueryParam)),
  oauthProviderId: (p, i) => (p.oauthProviderId = uuidOrNull(i.oauthProviderId ?? null, 'oauth_provider_id')),
  requiresUserOauth: (p, i) => (p.requiresUserOauth = i.requiresUserOauth ?? false),
  routing: (p, i) => (p.routing = i.routing == null ? null : jsonObject(i.routing, 'routing')),
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

function headerName(value: string | null): string | null {
  if (value !== null && !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(value)) throw badRequest('invalid_header_name', 'api_key_header is not a valid header name');
  return value;
}
