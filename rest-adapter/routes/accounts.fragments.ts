export const accountsFragments: Record<string, string> = {
  OrganizationFields: 'fragment OrganizationFields on Organization { id name personal role createdAt }',
  UserFields: 'fragment UserFields on User { id email name kind emailVerified createdAt defaultOrganization { ...OrganizationFields } }',
  TokenFields: 'fragment TokenFields on AuthTokens { accessToken refreshToken tokenType expiresIn user { ...UserFields } }',
  AgentFields: 'fragment AgentFields on Agent { id name email emailVerified organizationId createdAt apiKey }',
  ApiKeyFields: 'fragment ApiKeyFields on ApiKey { id name prefix organizationId createdAt lastUsedAt revokedAt }',
  NotificationFields: 'fragment NotificationFields on Notification { id kind title body data readAt createdAt }',
  InvitationFields: 'fragment InvitationFields on Invitation { id organizationId email role expiresAt acceptedAt createdAt }',
};
