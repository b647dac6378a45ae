import { bodyObject, booleanQuery, pageQuery, type RestRequest, type RestRoute } from '../route.js';

const input = (request: RestRequest) => ({ input: bodyObject(request) });
/** `/organizations/default/...` means the caller's default organization. */
const organizationParam = (request: RestRequest) =>
  request.params.organization_id === 'default' ? undefined : request.params.organization_id;

/** "Authentication and account" of the specification, plus API keys and notifications. */
export const accountsRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/auth/signup',
    auth: 'optional',
    status: 201,
    document: 'mutation($input: SignupInput!) { signup(input: $input) { user { ...UserFields } verificationEmailSent } }',
    variables: input,
  },
  {
    method: 'POST',
    path: '/auth/login',
    auth: 'optional',
    document: 'mutation($input: LoginInput!) { login(input: $input) { ...TokenFields } }',
    variables: input,
  },
  {
    method: 'POST',
    path: '/auth/logout',
    document: 'mutation { logout { loggedOut sessionsRevoked } }',
  },
  {
    method: 'POST',
    path: '/auth/refresh',
    auth: 'optional',
    document: 'mutation($input: RefreshTokenInput!) { refreshTokens(input: $input) { ...TokenFields } }',
    variables: input,
  },
  { method: 'GET', path: '/auth/me', document: 'query { me { ...UserFields } }' },
  {
    method: 'GET',
    path: '/auth/account-security',
    document: 'query { accountSecurity { hasPassword emailVerified linkedProviders activeSessions } }',
  },
  {
    method: 'POST',
    path: '/auth/change-password',
    document: 'mutation($input: ChangePasswordInput!) { changePassword(input: $input) { passwordUpdated sessionsRevoked } }',
    variables: input,
  },
  {
    method: 'POST',
    path: '/auth/forgot-password',
    auth: 'optional',
    document: 'mutation($input: EmailInput!) { forgotPassword(input: $input) { message } }',
    variables: input,
  },
  {
    method: 'POST',
    path: '/auth/reset-password',
    auth: 'optional',
    document: 'mutation($input: ResetPasswordInput!) { resetPassword(input: $input) { passwordReset } }',
    variables: input,
  },
  {
    method: 'POST',
    path: '/auth/resend-verification',
    auth: 'optional',
    document: 'mutation($input: EmailInput!) { resendVerification(input: $input) { message } }',
    variables: input,
  },
  {
    method: 'POST',
    path: '/auth/verify-email',
    auth: 'optional',
    document: 'mutation($input: TokenInput!) { verifyEmail(input: $input) { ...TokenFields } }',
    variables: input,
  },
  {
    method: 'POST',
    path: '/auth/accept-invite',
    document: 'mutation($input: TokenInput!) { acceptInvite(input: $input) { organization { ...OrganizationFields } role } }',
    variables: input,
  },
  {
    method: 'POST',
    path: '/auth/agent',
    auth: 'optional',
    status: 201,
    document: 'mutation($input: RegisterAgentInput) { registerAgent(input: $input) { agent { ...AgentFields } } }',
    variables: input,
  },
  {
    method: 'PATCH',
    path: '/auth/agent',
    document: 'mutation($input: EmailInput!) { updateAgent(input: $input) { ...AgentFields } }',
    variables: input,
  },
  { method: 'GET', path: '/organizations', document: 'query { organizations { ...OrganizationFields } }' },
  {
    method: 'GET',
    path: '/organizations/:organization_id/api-keys',
    document: 'query($organizationId: ID) { apiKeys(organizationId: $organizationId) { ...ApiKeyFields } }',
    variables: (request) => ({ organizationId: organizationParam(request) }),
  },
  {
    method: 'POST',
    path: '/organizations/:organization_id/api-keys',
    status: 201,
    document: 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey { ...ApiKeyFields } key } }',
    variables: (request) => ({ input: { ...bodyObject(request), organization_id: organizationParam(request) } }),
  },
  {
    method: 'DELETE',
    path: '/organizations/:organization_id/api-keys/:key_id',
    document: 'mutation($id: ID!, $organizationId: ID) { revokeApiKey(id: $id, organizationId: $organizationId) { ...ApiKeyFields } }',
    variables: (request) => ({ id: request.params.key_id, organizationId: request.params.organization_id }),
  },
  {
    method: 'POST',
    path: '/organizations/:organization_id/invitations',
    status: 201,
    document: 'mutation($input: InviteMemberInput!) { inviteToOrganization(input: $input) { ...InvitationFields } }',
    variables: (request) => ({ input: { ...bodyObject(request), organization_id: organizationParam(request) } }),
  },
  {
    method: 'GET',
    path: '/notifications',
    document:
      'query($limit: Int, $offset: Int, $unreadOnly: Boolean) { notifications(limit: $limit, offset: $offset, unreadOnly: $unreadOnly) { ...NotificationFields } }',
    variables: (request) => ({ ...pageQuery(request), unreadOnly: booleanQuery(request, 'unread_only') }),
  },
  {
    method: 'POST',
    path: '/notifications/:notification_id/read',
    document: 'mutation($id: ID!) { markNotificationRead(id: $id) { ...NotificationFields } }',
    variables: (request) => ({ id: request.params.notification_id }),
  },
];
