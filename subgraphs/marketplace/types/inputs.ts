import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';
import { QueryParam, UsageExample } from '../entities/json-shapes.js';
import { DecimalScalar } from './scalars.js';

const opt = { nullable: true } as const;

@InputType({ description: 'An endpoint descriptor as the publisher declares it' })
export class EndpointInput {
  @Field(() => String) method!: string;
  @Field(() => String) path!: string;
  @Field(() => String, opt) description?: string | null;
  @Field(() => GraphQLJSON, opt) requestBody?: unknown;
  @Field(() => String, opt) requestContentType?: string | null;
  @Field(() => GraphQLJSON, opt) response?: unknown;
  @Field(() => GraphQLJSON, opt) exampleRequest?: unknown;
  @Field(() => GraphQLJSON, opt) exampleResponse?: unknown;
  @Field(() => GraphQLJSON, opt) requiredHeaders?: unknown;
  @Field(() => GraphQLJSON, opt) bodyTemplate?: unknown;
  @Field(() => [QueryParam], opt) queryParams?: QueryParam[] | null;
  @Field(() => String, opt) access?: string | null;
  @Field(() => Boolean, opt) isProtected?: boolean | null;
  @Field(() => String, opt) protectionReason?: string | null;
  @Field(() => Boolean, opt) isDefault?: boolean | null;
  @Field(() => DecimalScalar, opt) price?: string | null;
}

@InputType({ description: 'Pricing in one accepted asset (USD when asset_id is omitted)' })
export class PricingInput {
  @Field(() => ID, opt) assetId?: string | null;
  @Field(() => String, opt) assetSymbol?: string | null;
  @Field(() => String, opt) pricingModel?: string | null;
  @Field(() => DecimalScalar, opt) basePricePer1000Rows?: string | null;
  @Field(() => DecimalScalar, opt) markupMultiplier?: string | null;
  @Field(() => DecimalScalar, opt) minCharge?: string | null;
  @Field(() => DecimalScalar, opt) unresolvedFallbackCharge?: string | null;
  @Field(() => DecimalScalar, opt) reserveMaxCharge?: string | null;
  @Field(() => DecimalScalar, opt) pricePerCall?: string | null;
  @Field(() => DecimalScalar, opt) pricePerGet?: string | null;
  @Field(() => DecimalScalar, opt) pricePerPost?: string | null;
  @Field(() => DecimalScalar, opt) pricePerPut?: string | null;
  @Field(() => DecimalScalar, opt) pricePerDelete?: string | null;
  @Field(() => DecimalScalar, opt) pricePerPatch?: string | null;
  @Field(() => DecimalScalar, opt) pricePerExecution?: string | null;
  @Field(() => Int, opt) paymentExpiryMinutes?: number | null;
  @Field(() => Boolean, opt) prepaidEnabled?: boolean | null;
  @Field(() => Boolean, opt) onchainEnabled?: boolean | null;
  @Field(() => DecimalScalar, opt) hourlyRate?: string | null;
  @Field(() => DecimalScalar, opt) minimumBalance?: string | null;
  @Field(() => DecimalScalar, opt) lowBalanceThreshold?: string | null;
  @Field(() => Int, opt) gracePeriodMinutes?: number | null;
  @Field(() => Int, opt) maxQueriesPerMinute?: number | null;
  @Field(() => DecimalScalar, opt) minDisplayPrice?: string | null;
  @Field(() => String, opt) pricingDisplayText?: string | null;
}

/**
 * The writable fields of a publisher. Creating requires name, slug and publisher_category; an update
 * changes only the fields it names. Secrets are write-only.
 */
@InputType()
export class PublisherInput {
  @Field(() => String, opt) name?: string | null;
  @Field(() => String, opt) slug?: string | null;
  @Field(() => String, opt) email?: string | null;
  @Field(() => String, opt) description?: string | null;
  @Field(() => String, opt) resourceName?: string | null;
  @Field(() => String, opt) resourceDescription?: string | null;
  @Field(() => [String], opt) categories?: string[] | null;
  @Field(() => [String], opt) capabilities?: string[] | null;
  @Field(() => [String], opt) useCases?: string[] | null;
  @Field(() => [UsageExample], opt) usageExamples?: UsageExample[] | null;
  @Field(() => String, opt) publisherType?: string | null;
  @Field(() => String, opt) walletAddress?: string | null;
  @Field(() => String, opt) walletNetworkId?: string | null;
  @Field(() => String, opt) publisherCategory?: string | null;
  @Field(() => String, opt) databaseType?: string | null;
  @Field(() => String, opt) integrationType?: string | null;
  @Field(() => String, opt) computeType?: string | null;
  @Field(() => String, opt) billingModel?: string | null;
  @Field(() => DecimalScalar, opt) gatewayFeePercent?: string | null;
  @Field(() => String, opt) upstreamCostResponsePath?: string | null;
  @Field(() => [String], opt) allowedPassthroughHeaders?: string[] | null;
  @Field(() => GraphQLJSON, opt) passthroughHeaderRewrite?: Record<string, unknown> | null;
  @Field(() => String, opt) requestContentType?: string | null;
  @Field(() => GraphQLJSON, opt) upstreamHeaders?: Record<string, unknown> | null;
  @Field(() => Boolean, opt) ownershipTrackingEnabled?: boolean | null;
  @Field(() => String, opt) resourceIdResponsePath?: string | null;
  @Field(() => String, opt) resourceIdUrlPattern?: string | null;
  @Field(() => GraphQLJSON, opt) protectedOperations?: unknown[] | null;
  @Field(() => [EndpointInput], opt) endpoints?: EndpointInput[] | null;
  @Field(() => String, opt) undocumentedEndpointPolicy?: string | null;
  @Field(() => ID, opt) projectId?: string | null;
  @Field(() => ID, opt) branchId?: string | null;
  @Field(() => String, opt) databaseName?: string | null;
  @Field(() => GraphQLJSON, opt) databaseConfig?: Record<string, unknown> | null;
  @Field(() => String, opt) apiUrl?: string | null;
  @Field(() => String, opt) mcpEndpoint?: string | null;
  @Field(() => String, opt) a2aEndpointUrl?: string | null;
  @Field(() => GraphQLJSON, opt) a2aAgentCard?: Record<string, unknown> | null;
  @Field(() => GraphQLJSON, opt) mcpCapabilities?: Record<string, unknown> | null;
  @Field(() => GraphQLJSON, opt) acceptedAssets?: unknown[] | null;
  @Field(() => [PricingInput], opt) pricing?: PricingInput[] | null;
  @Field(() => String, opt) tokenExchangeUrl?: string | null;
  @Field(() => String, opt) tokenExchangeMethod?: string | null;
  @Field(() => String, opt) tokenExchangeMode?: string | null;
  @Field(() => Int, opt) tokenCacheTtlSeconds?: number | null;
  @Field(() => String, opt) tokenResponseField?: string | null;
  @Field(() => String, opt) apiKeyHeader?: string | null;
  @Field(() => String, opt) apiKeyQueryParam?: string | null;
  @Field(() => ID, opt) oauthProviderId?: string | null;
  @Field(() => Boolean, opt) requiresUserOauth?: boolean | null;
  @Field(() => GraphQLJSON, opt) routing?: Record<string, unknown> | null;
  @Field(() => Boolean, { nullable: true, description: 'False pauses the publisher: not listed, calls answer 403 publisher_inactive' })
  isActive?: boolean | null;
  @Field(() => String, { nullable: true, description: 'Write-only upstream credential (stored encrypted)' })
  upstreamApiKey?: string | null;
  @Field(() => GraphQLJSON, { nullable: true, description: 'Write-only credentials sent to token_exchange_url (stored encrypted)' })
  tokenExchangeCredentials?: Record<string, unknown> | null;
}

@InputType()
export class PublisherListInput {
  @Field(() => String, opt) search?: string | null;
  @Field(() => String, opt) category?: string | null;
  @Field(() => Boolean, opt) isVerified?: boolean | null;
  @Field(() => Int, opt) limit?: number | null;
  @Field(() => Int, opt) offset?: number | null;
}

@InputType()
export class EstimateInput {
  @Field(() => ID, { nullable: true, description: 'Optional: the slug names the publisher; when given, it must be that one' })
  publisherId?: string | null;
  @Field(() => String, opt) query?: string | null;
  @Field(() => String, opt) method?: string | null;
  @Field(() => String, opt) path?: string | null;
  @Field(() => Int, opt) rows?: number | null;
}
