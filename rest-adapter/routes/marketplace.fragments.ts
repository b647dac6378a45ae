const ENDPOINT = `method path description requestBody requestContentType response exampleRequest exampleResponse requiredHeaders bodyTemplate
  queryParams { name description required paramType example } access isProtected protectionReason isDefault price`;
const PRICING = `assetId assetSymbol pricingModel base_price_per_1000_rows: basePricePer1000Rows markupMultiplier minCharge
  unresolvedFallbackCharge reserveMaxCharge pricePerCall pricePerGet pricePerPost pricePerPut pricePerDelete pricePerPatch
  pricePerExecution paymentExpiryMinutes prepaidEnabled onchainEnabled hourlyRate minimumBalance lowBalanceThreshold
  gracePeriodMinutes maxQueriesPerMinute minDisplayPrice pricingDisplayText`;

/** The Publisher record of the specification, every field. */
export const marketplaceFragments: Record<string, string> = {
  PublisherFields: `fragment PublisherFields on Publisher {
    id name slug email description resourceName resourceDescription categories capabilities useCases
    usageExamples { title description curl } logoUrl publisherType walletAddress walletNetworkId publisherCategory
    databaseType integrationType computeType billingModel gatewayFeePercent upstreamCostResponsePath
    allowedPassthroughHeaders passthroughHeaderRewrite requestContentType upstreamHeaders ownershipTrackingEnabled
    resourceIdResponsePath resourceIdUrlPattern protectedOperations endpoints { ${ENDPOINT} } undocumentedEndpointPolicy
    projectId branchId databaseName databaseConfig apiUrl mcpEndpoint a2aEndpointUrl a2aAgentCard mcpCapabilities
    a2aHealthStatus isActive isVerified verificationExpiresAt totalQueries uniqueAgentsServed totalRevenueAtomic
    createdAt updatedAt acceptedAssets pricing { ${PRICING} } tokenExchangeUrl tokenExchangeMethod tokenExchangeMode
    tokenCacheTtlSeconds tokenResponseField apiKeyHeader apiKeyQueryParam oauthProviderId requiresUserOauth routing
  }`,
};
