export const oauthFragments: Record<string, string> = {
  OAuthProviderFields: 'fragment OAuthProviderFields on OAuthProvider { id slug name scopes organizationId connected callbackUrl }',
  OAuthConnectionFields:
    'fragment OAuthConnectionFields on OAuthConnection { id providerId providerSlug providerName accountId scopes isDefault status createdAt expiresAt }',
};
